import type { SentPlant } from '../check/nothing-lost';

/**
 * The JSON body of a create request, the id written as its exact decimal digits (JSON.stringify
 * cannot write a bigint, and a number would round past 2^53).
 *
 * @param plant - the plant
 * @returns the body text
 */
export function plantBody(plant: SentPlant): string {
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
  return `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`;
}

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
