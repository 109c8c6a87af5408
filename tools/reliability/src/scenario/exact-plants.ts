/**
 * Ids spread over the whole int64 range, most beyond 2^53 so that any rounding would show, and
 * distinct for distinct `(space, index)` pairs (`space` below 1,000).
 *
 * @param space - which scenario, adapter or phase the id belongs to
 * @param index - the n-th id of that space
 * @returns an int64
 */
export function spreadId(space: number, index: number): bigint {
  const magnitude = 2n ** 53n + 1n + BigInt(index) * 1_000n + BigInt(space);
  return index % 2 === 0 ? magnitude * 1_021n : -magnitude * 1_019n;
}

/**
 * A name that only an exact store keeps: quotes, a backslash, an emoji, a combining accent that
 * normalisation would fold, and spaces at both ends.
 *
 * @param label - what makes it unique
 * @returns the name
 */
export function exactName(label: string): string {
  return ` ${label} "Monstera" \\ 🌿 e\u0301 `;
}

/**
 * `count` plants of one id space with {@link exactName} names, as a scenario sends them.
 *
 * @param space - the id space
 * @param count - how many
 * @param label - what the names say, before each plant's index
 * @param first - the index of the first plant. Default 0
 * @returns the plants, without tags
 */
export function exactPlants(
  space: number,
  count: number,
  label: string,
  first = 0,
): { readonly id: bigint; readonly name: string }[] {
  return Array.from({ length: count }, (_, k) => ({
    id: spreadId(space, first + k),
    name: exactName(`${label} ${first + k}`),
  }));
}
