import type * as v from 'valibot';
import {
  ConflictError,
  InsufficientScopeError,
  MissingTokenError,
  PayloadTooLargeError,
  RequestTimeoutError,
} from '../errors/plant-store-error';
import { INT64_MAX, INT64_MIN, readPlantJson } from '../body/read-plant-json';
import { ErrorSchema, INT32_MAX, INT32_MIN, NewPlantSchema, PlantSchema } from '../plant/schemas';
import { validatePlant } from '../plant/validate-plant';

/**
 * The JSON Schema (2020-12, as OpenAPI 3.1 uses it) subset this document needs.
 *
 * @example
 * ```ts
 * const id: JsonSchema = { type: 'integer', format: 'int64' };
 * ```
 */
export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: 'object' | 'string' | 'integer';
  readonly format?: 'int32' | 'int64';
  readonly description?: string;
  readonly pattern?: string;
  readonly const?: string;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly allOf?: readonly JsonSchema[];
}

/**
 * An OpenAPI Reference Object.
 *
 * @example
 * ```ts
 * const ref: OpenApiReference = { $ref: '#/components/headers/CacheControl' };
 * ```
 */
export interface OpenApiReference {
  readonly $ref: string;
}

/**
 * An OpenAPI Header Object.
 *
 * @example
 * ```ts
 * const header: OpenApiHeader = { description: 'Seconds to wait', schema: { type: 'integer' } };
 * ```
 */
export interface OpenApiHeader {
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

/**
 * An OpenAPI Example Object holding an Error body.
 *
 * @example
 * ```ts
 * const example: OpenApiExample = { summary: 'Conflict', value: { error: 409, message: '…' } };
 * ```
 */
export interface OpenApiExample {
  readonly summary: string;
  readonly value: { readonly error: number; readonly message: string };
}

/**
 * An OpenAPI Media Type Object.
 *
 * @example
 * ```ts
 * const json: OpenApiMediaType = { schema: { $ref: '#/components/schemas/Plant' } };
 * ```
 */
export interface OpenApiMediaType {
  readonly schema: JsonSchema;
  readonly examples?: Readonly<Record<string, OpenApiExample>>;
}

/**
 * An OpenAPI Response Object.
 *
 * @example
 * ```ts
 * const gone: OpenApiResponse = { description: 'Not found' };
 * ```
 */
export interface OpenApiResponse {
  readonly description: string;
  readonly headers?: Readonly<Record<string, OpenApiHeader | OpenApiReference>>;
  readonly content?: Readonly<Record<string, OpenApiMediaType>>;
}

/**
 * An OpenAPI Operation Object.
 *
 * @example
 * ```ts
 * const op: OpenApiOperation = { description: 'x', responses: { '200': { description: 'ok' } } };
 * ```
 */
export interface OpenApiOperation {
  readonly operationId?: string;
  readonly summary?: string;
  readonly description: string;
  readonly requestBody?: {
    readonly description: string;
    readonly required: boolean;
    readonly content: Readonly<Record<string, OpenApiMediaType>>;
  };
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
}

/**
 * An OpenAPI Security Scheme Object of type `http`.
 *
 * @example
 * ```ts
 * const bearer: OpenApiSecurityScheme = { type: 'http', scheme: 'bearer' };
 * ```
 */
export interface OpenApiSecurityScheme {
  readonly type: 'http';
  readonly scheme: string;
  readonly bearerFormat?: string;
  readonly description?: string;
}

/**
 * The OpenAPI 3.1.0 document of the route, as {@link createOpenApiDocument} builds it.
 *
 * @example
 * ```ts
 * const doc: OpenApiDocument = createOpenApiDocument();
 * ```
 */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: {
    readonly title: string;
    readonly description?: string;
    readonly license: { readonly name: string };
    readonly version: string;
  };
  readonly servers: readonly {
    readonly url: string;
    readonly variables?: Readonly<Record<string, { readonly default: string }>>;
  }[];
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly paths: Readonly<Record<string, { readonly post: OpenApiOperation }>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly headers: Readonly<Record<string, OpenApiHeader>>;
    readonly securitySchemes: Readonly<Record<string, OpenApiSecurityScheme>>;
  };
}

/**
 * Where the document says the route lives.
 *
 * @example
 * ```ts
 * const options: OpenApiOptions = { serverUrl: 'https://api.example.com', basePath: '/v1' };
 * ```
 */
export interface OpenApiOptions {
  /** Default of the `base_url` server variable; `http://localhost:3000` unless set. */
  readonly serverUrl?: string;
  /** Where the host mounts the middleware (`/v1` gives `/v1/plants`); empty by default. */
  readonly basePath?: string;
}

/** What the converter reads of a valibot schema or pipe item: its public introspection fields. */
interface SchemaNode {
  readonly kind: string;
  readonly type: string;
  readonly pipe?: readonly SchemaNode[];
  readonly entries?: Readonly<Record<string, SchemaNode>>;
  readonly wrapped?: SchemaNode;
  readonly default?: unknown;
  readonly requirement?: unknown;
  readonly description?: unknown;
}

const INTEGER_FORMATS = [
  { format: 'int64', min: INT64_MIN, max: INT64_MAX },
  { format: 'int32', min: BigInt(INT32_MIN), max: BigInt(INT32_MAX) },
] as const;

function unsupported(what: string): never {
  throw new TypeError(`toJsonSchema: ${what} is not supported by this converter.`);
}

function asBigint(bound: unknown): bigint {
  if (typeof bound === 'bigint') return bound;
  if (typeof bound === 'number' && Number.isInteger(bound)) return BigInt(bound);
  return unsupported(`the bound ${String(bound)}`);
}

/** Integer bounds become a `format`, never `minimum`/`maximum`: 2^63 - 1 has no exact JSON number. */
function integerFormat(min: unknown, max: unknown): 'int32' | 'int64' {
  if (min === undefined || max === undefined) return unsupported('an integer without both bounds');
  const low = asBigint(min);
  const high = asBigint(max);
  const match = INTEGER_FORMATS.find((f) => f.min === low && f.max === high);
  return match?.format ?? unsupported(`the integer range ${low} to ${high}`);
}

function convert(node: SchemaNode): JsonSchema {
  if (node.type === 'optional') return unsupported('optional outside an object entry');
  let type: JsonSchema['type'];
  let integer = false;
  let properties: Record<string, JsonSchema> | undefined;
  let required: string[] | undefined;
  if (node.type === 'string') type = 'string';
  else if (node.type === 'bigint') integer = true;
  else if (node.type !== 'number') {
    if (node.type !== 'object' || node.entries === undefined) return unsupported(`"${node.type}"`);
    type = 'object';
    properties = {};
    required = [];
    for (const [key, entry] of Object.entries(node.entries)) {
      if (entry.type === 'optional') {
        if (entry.default !== undefined || entry.wrapped === undefined) {
          return unsupported(`the optional entry "${key}" with a default`);
        }
        properties[key] = convert(entry.wrapped);
      } else {
        properties[key] = convert(entry);
        required.push(key);
      }
    }
  }
  let description: string | undefined;
  let pattern: string | undefined;
  let min: unknown;
  let max: unknown;
  for (const item of node.pipe?.slice(1) ?? []) {
    if (item.type === 'description' && typeof item.description === 'string') {
      description = item.description;
    } else if (item.type === 'regex' && item.requirement instanceof RegExp) {
      pattern = item.requirement.source;
    } else if (item.type === 'integer') integer = true;
    else if (item.type === 'min_value') min = item.requirement;
    else if (item.type === 'max_value') max = item.requirement;
    else return unsupported(`the pipe item "${item.type}"`);
  }
  let typed: JsonSchema;
  if (integer) typed = { type: 'integer', format: integerFormat(min, max) };
  else if (type === undefined) return unsupported('a number that is not an integer');
  else if (min !== undefined || max !== undefined) return unsupported('bounds on a non-integer');
  else typed = { type };
  return {
    ...typed,
    ...(description === undefined ? {} : { description }),
    ...(pattern === undefined ? {} : { pattern }),
    ...(required === undefined || required.length === 0 ? {} : { required }),
    ...(properties === undefined ? {} : { properties }),
  };
}

/**
 * Converts one of our valibot schemas to JSON Schema. It handles exactly what the schemas use
 * (object, string, optional entries, bigint and integer numbers with int32/int64 bounds, regex,
 * description) and refuses anything else, so a schema change cannot silently produce a wrong document.
 *
 * @param schema - a valibot schema built from the supported pieces
 * @returns its JSON Schema
 * @throws TypeError for a construct the converter does not know
 * @example
 * ```ts
 * toJsonSchema(ErrorSchema).properties?.error; // { type: 'integer', format: 'int32', description: … }
 * ```
 */
export function toJsonSchema(schema: v.GenericSchema): JsonSchema {
  return convert(schema);
}

/** The last description in a schema's pipe, the way valibot's `getDescription` reads it. */
function descriptionOf(node: SchemaNode): string | undefined {
  const item = node.pipe?.findLast((i) => i.type === 'description');
  return typeof item?.description === 'string' ? item.description : undefined;
}

/**
 * Writes `derived` as `allOf: [{ $ref: base }, { its own entries }]`, the seed's form for NewPlant.
 * The shared entries must be the very same schema objects, so the two cannot drift apart.
 */
function extensionOf(baseRef: string, base: SchemaNode, derived: SchemaNode): JsonSchema {
  const baseEntries = base.entries ?? unsupported('a base without entries');
  const derivedEntries = derived.entries ?? unsupported('an extension without entries');
  const own: Record<string, SchemaNode> = {};
  for (const [key, entry] of Object.entries(derivedEntries)) {
    if (!Object.hasOwn(baseEntries, key)) own[key] = entry;
    else if (baseEntries[key] !== entry) unsupported(`a redefined base entry "${key}"`);
  }
  const description = descriptionOf(derived);
  return {
    ...(description === undefined ? {} : { description }),
    allOf: [{ $ref: baseRef }, convert({ kind: 'schema', type: 'object', entries: own })],
  };
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const header = (name: string): OpenApiReference => ({ $ref: `#/components/headers/${name}` });

/** The message an error of ours carries, for examples that cannot drift from the code. */
function messageOf(fail: () => unknown): string {
  try {
    fail();
  } catch (error) {
    if (error instanceof Error) return error.message;
  }
  throw new Error('openapi: an example was expected to fail');
}

function errorResponse(
  status: number,
  description: string,
  options: {
    readonly examples?: Readonly<Record<string, { summary: string; message: string }>>;
    readonly headers?: Readonly<Record<string, OpenApiHeader | OpenApiReference>>;
  } = {},
): OpenApiResponse {
  const examples = Object.fromEntries(
    Object.entries(options.examples ?? {}).map(([name, { summary, message }]) => [
      name,
      { summary, value: { error: status, message } },
    ]),
  );
  return {
    description,
    headers: {
      ...options.headers,
      'Cache-Control': header('CacheControl'),
      Vary: header('Vary'),
    },
    content: {
      'application/json': {
        schema: ref('Error'),
        ...(Object.keys(examples).length === 0 ? {} : { examples }),
      },
    },
  };
}

function responses(): Record<string, OpenApiResponse> {
  return {
    '200': {
      description:
        'plant response\n\nThe stored plant without its `id`; `tag` only when the plant has one, as `application/json; charset=utf-8`. A repeat of a request whose `id` exists with the same `name` and `tag` answers 200 with that plant. Success is never signalled with another 2xx status.',
      headers: { 'Cache-Control': header('CacheControl'), Vary: header('Vary') },
      content: { 'application/json': { schema: ref('Plant') } },
    },
    '400': errorResponse(
      400,
      'unexpected error\n\nThe body is not strict JSON (invalid UTF-8, duplicate keys, unpaired surrogates, nesting deeper than 64, a `__proto__` or `constructor` key), is not one JSON object, or fails the schema: then `message` names every offending field, what was expected and what type came, and never the submitted value. Also answered when the `Authorization` header is malformed or repeated, with a `WWW-Authenticate` challenge carrying `error="invalid_request"`.',
      {
        headers: {
          'WWW-Authenticate': {
            description:
              'Only when the `Authorization` header is at fault: `Bearer realm="…", error="invalid_request", error_description="…"`.',
            schema: { type: 'string' },
          },
        },
        examples: {
          schema: {
            summary: 'The body fails the schema',
            message: messageOf(() => validatePlant(readPlantJson('{"id":"1"}'))),
          },
          notJson: {
            summary: 'The body is not JSON',
            message: messageOf(() => readPlantJson('{"id":1,')),
          },
        },
      },
    ),
    '401': errorResponse(
      401,
      'No bearer token in the `Authorization` header, or a token that fails verification (signature, expiry, issuer, audience, required claims).',
      {
        headers: {
          'WWW-Authenticate': {
            description:
              'On every 401 (RFC 6750): `Bearer realm="…"`, plus `error="invalid_token"` and an `error_description` when a token was sent.',
            required: true,
            schema: { type: 'string' },
          },
        },
        examples: { missing: { summary: 'No token', message: new MissingTokenError().message } },
      },
    ),
    '403': errorResponse(403, 'The token is valid but lacks a scope the route requires.', {
      headers: {
        'WWW-Authenticate': {
          description:
            '`Bearer realm="…", error="insufficient_scope", error_description="…", scope="…"` naming the required scopes.',
          required: true,
          schema: { type: 'string' },
        },
      },
      examples: {
        scope: {
          summary: 'A required scope is missing',
          message: new InsufficientScopeError(['plants:write']).message,
        },
      },
    }),
    '408': errorResponse(
      408,
      'The body did not arrive within the read time-out (10 s by default, configurable).',
      {
        examples: {
          timeout: { summary: 'Slow body', message: new RequestTimeoutError(10_000).message },
        },
      },
    ),
    '409': errorResponse(
      409,
      'A plant with this `id` already exists with a different `name` or `tag`. Nothing was changed, and the answer does not reveal what is stored.',
      {
        examples: {
          conflict: { summary: 'Same id, other content', message: new ConflictError().message },
        },
      },
    ),
    '413': errorResponse(
      413,
      'The body is larger than the limit (16 KiB by default, configurable); reading stops as soon as the limit is exceeded.',
      {
        examples: {
          tooLarge: {
            summary: 'Body too large',
            message: new PayloadTooLargeError(16_384).message,
          },
        },
      },
    ),
    '415': errorResponse(
      415,
      '`Content-Type` is missing or is not `application/json` with an absent or `utf-8` charset, or the body is compressed (`Content-Encoding` other than `identity`).',
    ),
    '500': errorResponse(
      500,
      'The store or a hook failed unexpectedly. The message is generic; the details go to the `onError` hook, never to the client.',
    ),
    '503': errorResponse(
      503,
      'The store timed out or is unavailable, or the key set (JWKS) cannot be fetched and no good copy is cached. An outage of the identity provider is never answered with 401.',
      { headers: { 'Retry-After': header('RetryAfter') } },
    ),
  };
}

const OPERATION_DESCRIPTION =
  'Creates a new plant in the store\n\nCreation is idempotent on `id`: a request whose `id` already exists with the same `name` and `tag` answers 200 with that plant, so a client may retry after a time-out; the same `id` with a different `name` or `tag` answers 409 and changes nothing. Checks run in this order: authentication, content type, body size, JSON, schema, store; an unauthenticated request is answered without its body being read. Every answer carries `Cache-Control: no-store` and `Vary: Authorization`.';

const REQUEST_BODY_DESCRIPTION =
  'Plant to add to the store\n\n`Content-Type` must be `application/json`; a `charset` parameter, if present, must be `utf-8` (anything else, no `Content-Type` or a compressed body answers 415). The body may hold at most 16 KiB by default (configurable; 413 past it) and must arrive within the read time-out (10 s by default; 408). It must be valid UTF-8 (one leading BOM tolerated) holding one strict JSON object: duplicate keys, unpaired surrogates, nesting deeper than 64 and the keys `__proto__` and `constructor` answer 400. `id` is kept exactly as sent, never rounded through a float: `1.0` and `1e2` are integers, `1.5`, `"1"`, `true` and `null` are not. Strings are kept exactly (no trimming, no normalisation) and may not contain U+0000. Other properties are ignored and not stored.';

/** Accepts `''`, `/v1`, `/v1/` (normalised to `/v1`); refuses what cannot be an OpenAPI path prefix. */
function normaliseBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/u, '');
  if (trimmed !== '' && !/^(?:\/[^/?#{}\s]+)+$/u.test(trimmed)) {
    throw new TypeError(
      `createOpenApiDocument: basePath must be empty or start with "/" and hold no "?", "#", "{", "}" or whitespace; got ${JSON.stringify(basePath)}.`,
    );
  }
  return trimmed;
}

/**
 * Builds the OpenAPI 3.1.0 document of the route as it really behaves: the seed's document (its
 * texts kept verbatim as the first paragraph of each description) plus every status the route
 * answers, its headers and the bearer scheme. The component schemas are generated from
 * {@link PlantSchema}, {@link NewPlantSchema} and {@link ErrorSchema}, the schemas the code validates with.
 *
 * @param options - the server URL and the path the host mounts the middleware at
 * @returns a fresh document, ready for `JSON.stringify`
 * @throws TypeError when `basePath` is not a usable path prefix
 * @example
 * ```ts
 * app.get('/openapi.json', (_req, res) => res.json(createOpenApiDocument({ basePath: '/v1' })));
 * ```
 */
export function createOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const basePath = normaliseBasePath(options.basePath ?? '');
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
        variables: { base_url: { default: options.serverUrl ?? 'http://localhost:3000' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    paths: {
      [`${basePath}/plants`]: {
        post: {
          operationId: 'createPlant',
          summary: 'Create a plant',
          description: OPERATION_DESCRIPTION,
          requestBody: {
            description: REQUEST_BODY_DESCRIPTION,
            required: true,
            content: { 'application/json': { schema: ref('NewPlant') } },
          },
          responses: responses(),
        },
      },
    },
    components: {
      schemas: {
        Plant: toJsonSchema(PlantSchema),
        NewPlant: extensionOf('#/components/schemas/Plant', PlantSchema, NewPlantSchema),
        Error: toJsonSchema(ErrorSchema),
      },
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

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'object' && item !== null && !Object.isFrozen(item)) {
      Object.freeze(item);
      stack.push(...Object.values(item as Record<string, unknown>));
    }
  }
  return value;
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
