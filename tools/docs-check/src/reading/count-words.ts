// A word is what a reader reads: a run of non-space characters holding a letter or a digit, in
// prose, tables and code blocks alike. Markup a reader does not read is left out: HTML comments
// (the CI markers), link targets (the text of a link is read, its URL is not), a code fence's
// language, and punctuation standing alone (`|`, `-`, `});`).
const COMMENT = /<!--[\s\S]*?-->/gu;
const FENCE = /^```\S*/gmu;
const LINK_TARGET = /\]\([^)\s]*\)/gu;
const WORD = /[\p{L}\p{N}]/u;

/**
 * Counts the words a reader reads in a piece of Markdown.
 *
 * @param markdown - a page or a part of one
 * @returns the number of words
 * @example
 * ```ts
 * countWords('Read [the guide](guide.md): `npm install x`.'); // 6
 * ```
 */
export function countWords(markdown: string): number {
  const read = markdown.replace(COMMENT, ' ').replace(FENCE, ' ').replace(LINK_TARGET, ']');
  return read.split(/\s+/u).filter((token) => WORD.test(token)).length;
}
