import { createOpenApiDocument } from '@plantstore/core/openapi';
import { generateTypes } from './generate-types';

/** The interface specification's OpenAPI document, as committed in `spec/`. */
export const SEED_DOCUMENT = new URL('../../../spec/plant-store.openapi.json', import.meta.url);

/** How the core's document is named in the header of the files generated from it. */
export const CORE_DOCUMENT_NAME = 'createOpenApiDocument({ basePath: "/api" })';

/**
 * Generates the client types the tests compile against, by path under `test/generated/`: the core's
 * document mounted at `/api` (int64 as `number`, and as `bigint` in `int64/`), and the seed (`seed/`).
 *
 * @returns each file's source, by its path relative to `test/generated/`
 */
export async function generateTestTypes(): Promise<Map<string, string>> {
  const core = JSON.stringify(createOpenApiDocument({ basePath: '/api' }));
  const from = CORE_DOCUMENT_NAME;
  return new Map([
    ['plantstore-api.ts', await generateTypes(core, { from })],
    ['int64/plantstore-api.ts', await generateTypes(core, { from, int64AsBigInt: true })],
    [
      'seed/plantstore-api.ts',
      await generateTypes(SEED_DOCUMENT, { from: 'spec/plant-store.openapi.json' }),
    ],
  ]);
}
