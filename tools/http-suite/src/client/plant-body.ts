/** A plant as a request sends it; the id may be any JSON number text. */
export interface PlantFields {
  readonly id: bigint | number | string;
  readonly name: string;
  readonly tag?: string | undefined;
}

/**
 * The JSON body of a create request, the id written as its exact decimal digits (JSON.stringify
 * cannot write a bigint, and a number would round past 2^53).
 *
 * @param plant - the plant; `tag` is left out when undefined
 * @returns the body text
 * @example
 * plantBody({ id: 9007199254740993n, name: 'Fern' }); // '{"id":9007199254740993,"name":"Fern"}'
 */
export function plantBody(plant: PlantFields): string {
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
  return `{"id":${String(plant.id)},"name":${JSON.stringify(plant.name)}${tag}}`;
}
