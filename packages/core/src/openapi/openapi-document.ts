import { deepFreeze } from '../common/deep-freeze';
import { normaliseBasePath } from '../http/base-path';
import { checkKnownOptions, describeValue, optionError } from '../options/check-options';
import { ErrorSchema, NewPlantSchema, PlantSchema } from '../plant/schemas';
import { extensionOf, toJsonSchema } from './json-schema';
import type { OpenApiDocument, OpenApiOptions } from './openapi-types';
import { operationTag } from './operation-tag';
import { ref, responses } from './responses';
import { withExamples } from './schema-examples';

const OPTION_NAMES: ReadonlySet<string> = new Set(['serverUrl', 'basePath', 'tag']);

const OPERATION_DESCRIPTION =
  'Creates a new plant in the store\n\nCreation is idempotent on `id`: a request whose `id` already exists with the same `name` and `tag` answers 200 with that plant, so a client may retry after a time-out; the same `id` with a different `name` or `tag` answers 409 and changes nothing. Checks run in this order: authentication, content type, body size, JSON, schema, store; an unauthenticated request is answered without its body being read. Every answer carries `Cache-Control: no-store` and `Vary: Authorization`.';

const REQUEST_BODY_DESCRIPTION =
  'Plant to add to the store\n\n`Content-Type` must be `application/json`; a `charset` parameter, if present, must be `utf-8` (anything else, no `Content-Type` or a compressed body answers 415). The body may hold at most 16 KiB by default (configurable; 413 past it) and must arrive within the read time-out (10 s by default; 408). It must be valid UTF-8 (one leading BOM tolerated) holding one strict JSON object: duplicate keys, unpaired surrogates, nesting deeper than 64 and the keys `__proto__` and `constructor` answer 400. `id` is kept exactly as sent, never rounded through a float: `1.0` and `1e2` are integers, `1.5`, `"1"`, `true` and `null` are not. Strings are kept exactly (no trimming, no normalisation) and may not contain U+0000. Other properties are ignored and not stored.';

/**
 * Builds the OpenAPI 3.1.0 document of the route as it really behaves: the seed's document (its
 * texts kept verbatim as the first paragraph of each description) plus every status the route
 * answers, its headers and the bearer scheme. The component schemas are generated from
 * {@link PlantSchema}, {@link NewPlantSchema} and {@link ErrorSchema}, the schemas the code validates with.
 *
 * @param options - the server URL, the path the host mounts the middleware at, and the operation's tag
 * @returns a fresh document, ready for `JSON.stringify`
 * @throws TypeError for an unknown option, a `serverUrl` that is not a non-empty string, a `basePath`
 *   that is not a usable path prefix, or a `tag` that is not a non-empty string
 * @example
 * ```ts
 * app.get('/openapi.json', (_req, res) => res.json(createOpenApiDocument({ basePath: '/v1' })));
 * ```
 */
export function createOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  checkKnownOptions('createOpenApiDocument', options, OPTION_NAMES);
  const serverUrl = options.serverUrl ?? 'http://localhost:3000';
  if (typeof serverUrl !== 'string' || serverUrl === '') {
    optionError('createOpenApiDocument', 'serverUrl', 'must be a URL', describeValue(serverUrl));
  }
  const basePath = normaliseBasePath('createOpenApiDocument', options.basePath);
  const tag = operationTag('createOpenApiDocument', options.tag);
  const answers = responses();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plant Store',
      description:
        'Creating a plant: `POST {base}/plants`, with bearer authentication, exact validation (the `id` is an exact int64) and idempotent creation. Every failure answers with the Error shape.',
      license: { name: 'MIT' },
      version: '1.0.0',
    },
    servers: [
      {
        url: '{base_url}',
        variables: { base_url: { default: serverUrl } },
      },
    ],
    security: [{ bearerAuth: [] }],
    paths: {
      [`${basePath}/plants`]: {
        post: {
          operationId: 'createPlant',
          summary: 'Create a plant',
          tags: [tag],
          description: OPERATION_DESCRIPTION,
          requestBody: {
            description: REQUEST_BODY_DESCRIPTION,
            required: true,
            content: { 'application/json': { schema: ref('NewPlant') } },
          },
          responses: answers,
        },
      },
    },
    components: {
      schemas: withExamples(
        {
          Plant: toJsonSchema(PlantSchema),
          NewPlant: extensionOf('#/components/schemas/Plant', PlantSchema, NewPlantSchema),
          Error: toJsonSchema(ErrorSchema),
        },
        conflictExample(answers),
      ),
      headers: {
        CacheControl: {
          description: 'Always `no-store`: no answer of this route may be cached.',
          required: true,
          schema: { type: 'string', const: 'no-store' },
        },
        Vary: {
          description:
            'Includes `Authorization` (RFC 6750 §5.3): the answer depends on the credential.',
          required: true,
          schema: { type: 'string' },
        },
        RetryAfter: {
          description: 'Seconds to wait before retrying.',
          required: true,
          schema: { type: 'integer' },
        },
        Accept: {
          description:
            'On a 415 for the `Content-Type`: `application/json`, the media type the route reads (RFC 9110 §15.5.16).',
          schema: { type: 'string', const: 'application/json' },
        },
        AcceptEncoding: {
          description:
            'On a 415 for a compressed body: `identity`, the only coding the route reads (RFC 9110 §12.5.3).',
          schema: { type: 'string', const: 'identity' },
        },
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A bearer token in the `Authorization` header only, never in the query string or a cookie. With `jwtBearer` it is a JWT verified with jose; a host may plug in its own verifier for opaque tokens.',
        },
      },
    },
  };
}

/** The 409 answer's example body: the Error schema's own example, the code's real message. */
function conflictExample(answers: ReturnType<typeof responses>) {
  const example = answers['409']?.content?.['application/json']?.examples?.['conflict'];
  if (example === undefined) throw new Error('openapi: the 409 answer has no example');
  return example.value;
}

/**
 * The route's OpenAPI document for the defaults (`http://localhost:3000`, mounted at the root),
 * built once and deeply frozen; use {@link createOpenApiDocument} for another server or base path.
 * Tools that modify the document they are given (openapi-typescript's `openapiTS`) need a copy:
 * pass `JSON.stringify(openApiDocument)` or `structuredClone(openApiDocument)`.
 *
 * @example
 * ```ts
 * writeFileSync('openapi.json', JSON.stringify(openApiDocument, null, 2));
 * ```
 */
export const openApiDocument: OpenApiDocument = /* @__PURE__ */ deepFreeze(createOpenApiDocument());
