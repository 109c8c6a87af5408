import { describeValue } from '../options/check-options';

/** A JSON object of a document being merged. */
export type JsonObject = Record<string, unknown>;

/** The OpenAPI versions a host document may have: its schemas are written for one of them. */
export type OpenApiVersion = '3.0' | '3.1';

/** The factory named in every message of the merge. */
export const MERGE = 'addPlantRoute';

/**
 * Whether a value is a JSON object (not an array, not null).
 *
 * @param value - anything
 * @returns true for an object
 */
export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads which OpenAPI version a host document is written in, from its `openapi` field.
 *
 * @param document - what the host passed
 * @returns `3.0` or `3.1`
 * @throws TypeError for anything that is not an OpenAPI 3.0.x or 3.1.x document (Swagger 2.0, 3.2)
 */
export function openApiVersion(document: unknown): OpenApiVersion {
  const field = isJsonObject(document) ? document['openapi'] : undefined;
  const version = typeof field === 'string' ? /^3\.([01])\.\d+$/u.exec(field)?.[1] : undefined;
  if (version === undefined) {
    const received = !isJsonObject(document)
      ? describeValue(document)
      : typeof field === 'string'
        ? JSON.stringify(field.slice(0, 20))
        : `"openapi": ${describeValue(field)}`;
    throw new TypeError(
      `${MERGE}: the document must be an OpenAPI 3.0.x or 3.1.x document (its "openapi" field); received ${received}`,
    );
  }
  return version === '0' ? '3.0' : '3.1';
}

/**
 * The object under `key`, added when absent: `paths`, `components` and its maps are optional.
 *
 * @param parent - an object of the (copied) host document
 * @param key - the member
 * @param where - its place in the document, for the message (`components.schemas`)
 * @returns the member, the very object in `parent`
 * @throws TypeError when the member is there but is not an object
 */
export function objectIn(parent: JsonObject, key: string, where: string): JsonObject {
  const value = parent[key] ?? (parent[key] = {});
  if (!isJsonObject(value)) {
    throw new TypeError(
      `${MERGE}: the document's ${where} must be an object; received ${describeValue(value)}`,
    );
  }
  return value;
}

/**
 * A new object with each value of `map` converted.
 *
 * @param map - an object
 * @param convert - what to do with each value
 * @returns the converted object, same keys in the same order
 */
export const mapValues = <T, U>(
  map: Readonly<Record<string, T>>,
  convert: (value: T) => U,
): Record<string, U> =>
  Object.fromEntries(Object.entries(map).map(([name, value]) => [name, convert(value)]));
