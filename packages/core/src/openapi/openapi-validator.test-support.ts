import { Validator } from '@seriousme/openapi-schema-validator';

/**
 * Validates a document against the OpenAPI 3.0 or 3.1 schema its `openapi` field names, and checks
 * that every `$ref` resolves, with @seriousme/openapi-schema-validator (Ajv on the official schemas,
 * no install script). The drift test and the merge's tests use this one validator. Test support only;
 * no product module imports it.
 *
 * @param document - a document, copied through JSON first (the validator may annotate what it gets)
 * @returns the validator's errors, `[]` for a valid document
 */
export async function openApiErrors(document: unknown): Promise<unknown> {
  const copy = JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
  const result = await new Validator().validate(copy);
  return result.valid ? [] : (result.errors ?? 'invalid');
}
