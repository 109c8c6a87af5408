/**
 * What a body reader found for the three NewPlant members; a null-prototype object holding only members
 * present. Numbers are `bigint` when they are integers by value (`INT64_MAX + 1n` / `INT64_MIN - 1n`
 * stand for any integer past either end) and `0.5` when a fraction remains; objects and arrays are
 * empty placeholders of their type.
 *
 * @example
 * ```ts
 * const candidate: PlantCandidate = readPlantJson('{"id":1,"name":"Fern"}');
 * ```
 */
export interface PlantCandidate {
  id?: unknown;
  name?: unknown;
  tag?: unknown;
}
