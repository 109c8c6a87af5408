import { readPlantJson } from '../body/read-plant-json';
import { InsufficientScopeError, MissingTokenError } from '../errors/bearer-errors';
import { ConflictError, PayloadTooLargeError, RequestTimeoutError } from '../errors/client-errors';
import { assertJsonBody } from '../body/content-type';
import { PUBLIC_MESSAGES } from '../errors/public-messages';
import { validatePlant } from '../plant/validate-plant';
import type { JsonSchema, OpenApiHeader, OpenApiReference, OpenApiResponse } from './openapi-types';

/** A reference to a component schema. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
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

/**
 * Every answer of the route, each error with examples made by the code's own errors.
 *
 * @returns the `responses` of the operation
 */
export function responses(): Record<string, OpenApiResponse> {
  return {
    '200': {
      description:
        'plant response\n\nThe stored plant without its `id`; `tag` only when the plant has one, as `application/json; charset=utf-8`. A repeat of a request whose `id` exists with the same `name` and `tag`, by the caller that created it, answers 200 with that plant and `Idempotent-Replayed: true`. Success is never signalled with another 2xx status.',
      headers: {
        'Cache-Control': header('CacheControl'),
        Vary: header('Vary'),
        'Idempotent-Replayed': {
          description:
            '`true` when the plant was already stored by this caller and nothing was created now (a replay of a retried create); absent when the plant was created by this request.',
          schema: { type: 'string' },
        },
      },
      content: { 'application/json': { schema: ref('Plant') } },
    },
    '400': errorResponse(
      400,
      'unexpected error\n\nThe body is not strict JSON (invalid UTF-8, duplicate keys, unpaired surrogates, nesting deeper than 64, a `__proto__` or `constructor` key), is not one JSON object, or fails the schema: then `message` names every offending field, what was expected and what type came, and never the submitted value. Also answered when the `Authorization` field is repeated (a malformed one answers 401), with a `WWW-Authenticate` challenge carrying `error="invalid_request"`.',
      {
        headers: {
          'WWW-Authenticate': {
            description:
              'Only when the `Authorization` field is repeated: `Bearer realm="…", error="invalid_request", error_description="…"`.',
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
      'No bearer token in the `Authorization` header, or a token that fails verification (signature, expiry, issuer, audience, required claims), or, with ids kept per tenant, a token that names no valid tenant.',
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
      'A plant with this `id` already exists with a different `name` or `tag`, or was created by another caller (only its creator gets the 200 of a replay). Nothing was changed, and the answer does not reveal what is stored, nor whose it is.',
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
      {
        headers: { Accept: header('Accept'), 'Accept-Encoding': header('AcceptEncoding') },
        examples: {
          mediaType: {
            summary: 'Not JSON',
            message: messageOf(() => assertJsonBody(['text/plain'], undefined)),
          },
        },
      },
    ),
    '500': errorResponse(
      500,
      'The store or a hook failed unexpectedly. The message is generic; the details go to the `onError` hook, never to the client.',
      {
        examples: {
          internal: {
            summary: 'The store failed',
            message: PUBLIC_MESSAGES[500],
          },
        },
      },
    ),
    '503': errorResponse(
      503,
      'The store timed out or is unavailable, or the key set (JWKS) cannot be fetched and no good copy is cached. An outage of the identity provider is never answered with 401.',
      {
        headers: { 'Retry-After': header('RetryAfter') },
        examples: {
          unavailable: {
            summary: 'The store is down',
            message: PUBLIC_MESSAGES[503],
          },
        },
      },
    ),
  };
}
