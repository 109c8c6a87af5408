/**
 * @param text - text to match literally, such as a URL
 * @returns it with every character a regular expression treats specially escaped
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
