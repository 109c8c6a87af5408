import type { JsonSchema } from './openapi-types';

// What a viewer shows as the sample body. Without an example Swagger UI makes one up from the
// schema, and the `pattern` that refuses U+0000 makes that a random string.
const PLANT = { name: 'Fern', tag: 'indoor' } as const;

/**
 * The route's component schemas with an `examples` list each (JSON Schema 2020-12, OpenAPI 3.1;
 * the 3.0 converter writes the first as `example`).
 *
 * @param schemas - the generated `Plant`, `NewPlant` and `Error` schemas
 * @param error - the Error body to show beside the Error schema
 * @returns the same schemas with their examples
 * @example
 * ```ts
 * withExamples({ Plant, NewPlant, Error }, { error: 409, message: '…' }).Plant.examples; // [{ name: 'Fern', tag: 'indoor' }]
 * ```
 */
export function withExamples(
  schemas: {
    readonly Plant: JsonSchema;
    readonly NewPlant: JsonSchema;
    readonly Error: JsonSchema;
  },
  error: { readonly error: number; readonly message: string },
): Record<'Plant' | 'NewPlant' | 'Error', JsonSchema> {
  return {
    Plant: { ...schemas.Plant, examples: [{ ...PLANT }] },
    NewPlant: { ...schemas.NewPlant, examples: [{ id: 10, ...PLANT }] },
    Error: { ...schemas.Error, examples: [{ ...error }] },
  };
}
