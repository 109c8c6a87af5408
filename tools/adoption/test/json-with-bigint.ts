/**
 * `JSON.stringify` that writes a `bigint` as its exact digits: a JSON number of any size.
 * (`JSON.stringify` throws on a bigint, and a JS number past 2^53 has already lost digits.)
 *
 * @param value - a JSON value, possibly holding bigints
 * @returns its JSON text
 */
export function jsonWithBigInt(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) {
    return `[${value.map((item) => jsonWithBigInt(item ?? null)).join(',')}]`;
  }
  if (typeof value === 'object' && value !== null && !('toJSON' in value)) {
    const members = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${members.map(([key, item]) => `${JSON.stringify(key)}:${jsonWithBigInt(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
