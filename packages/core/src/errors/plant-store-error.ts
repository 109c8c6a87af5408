/**
 * Every stable reason a request can be refused or fail with. Observers, logs and metrics key on these;
 * they never change meaning once released.
 */
export type PlantStoreErrorCode =
  // 400 with `WWW-Authenticate: Bearer error="invalid_request"`
  | 'authorization_malformed'
  | 'authorization_repeated'
  // 401 (no `error` attribute: no bearer credentials were sent at all)
  | 'token_missing'
  // 401 `invalid_token`
  | 'token_malformed'
  | 'token_too_large'
  | 'token_expired'
  | 'token_not_yet_valid'
  | 'token_too_old'
  | 'signature_invalid'
  | 'algorithm_not_allowed'
  | 'issuer_mismatch'
  | 'audience_mismatch'
  | 'claim_missing'
  | 'claim_invalid'
  | 'key_not_found'
  | 'token_rejected'
  // 403 `insufficient_scope`
  | 'scope_insufficient'
  // 415
  | 'media_type_unsupported'
  | 'content_encoding_unsupported'
  // 413, 408
  | 'body_too_large'
  | 'body_timeout'
  // 400: the body
  | 'body_aborted'
  | 'body_empty'
  | 'body_invalid_utf8'
  | 'body_not_json'
  | 'body_not_object'
  | 'body_too_deep'
  | 'body_duplicate_key'
  | 'body_forbidden_key'
  | 'body_lone_surrogate'
  // 400: the schema
  | 'schema_mismatch'
  | 'field_missing'
  | 'id_not_integer'
  | 'id_out_of_range'
  | 'id_unsafe_in_parsed_body'
  | 'string_contains_nul'
  // 404, 405: only where the route answers on its own (the fetch and node entries)
  | 'route_not_found'
  | 'method_not_allowed'
  // 409
  | 'id_conflict'
  // 503
  | 'jwks_unavailable'
  | 'store_timeout'
  | 'store_unavailable'
  // 500
  | 'store_failed'
  | 'auth_failed'
  | 'hook_failed'
  | 'internal_error';

/** Parameters of an RFC 6750 `WWW-Authenticate: Bearer` challenge. */
export interface BearerChallenge {
  readonly error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  readonly description?: string;
  readonly scope?: string;
}

/** Options every Plantstore error accepts. */
export interface PlantStoreErrorOptions {
  /** The underlying failure: kept for `onError` and logs, never sent to the client. */
  readonly cause?: unknown;
}

const brand = Symbol.for('@plantstore/core/error');

/** The realm named in challenges when the service does not set its own. */
export const DEFAULT_REALM = 'plantstore';

/**
 * Base class of every error Plantstore answers with. `status` is the HTTP status, `code` the stable
 * reason, `expose` whether `message` may be shown to the client (true for 4xx), `headers` the headers
 * the answer needs (`WWW-Authenticate`, `Retry-After`). Express's finalhandler and Koa's `ctx.onerror`
 * honour all of these, so an error that escapes to the host is still answered sensibly.
 */
export abstract class PlantStoreError extends Error {
  abstract override readonly name: string;
  readonly code: PlantStoreErrorCode;
  readonly status: number;
  readonly expose: boolean;

  protected constructor(
    status: number,
    code: PlantStoreErrorCode,
    message: string,
    options?: PlantStoreErrorOptions,
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.expose = status < 500;
    Object.defineProperty(this, brand, { value: true });
  }

  /** Alias of `status`, for frameworks that read `statusCode`. */
  get statusCode(): number {
    return this.status;
  }

  /** Headers the answer must carry, beyond the ones every answer of the route has. */
  get headers(): Readonly<Record<string, string>> {
    return {};
  }
}

/**
 * Tells a Plantstore error from anything else, also across two installed copies of the package
 * (where `instanceof` fails).
 *
 * @param value - anything caught
 * @returns whether `value` is a {@link PlantStoreError}
 * @example
 * ```ts
 * app.use((err, req, res, next) => isPlantStoreError(err) ? res.status(err.status).end() : next(err));
 * ```
 */
export function isPlantStoreError(value: unknown): value is PlantStoreError {
  return (
    value instanceof PlantStoreError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true)
  );
}

/** Renders an RFC 6750 challenge. Descriptions are our own fixed texts, never client input. */
export function renderBearerChallenge(realm: string, challenge: BearerChallenge): string {
  let header = `Bearer realm="${realm}"`;
  if (challenge.error !== undefined) header += `, error="${challenge.error}"`;
  if (challenge.description !== undefined) {
    header += `, error_description="${challenge.description}"`;
  }
  if (challenge.scope !== undefined) header += `, scope="${challenge.scope}"`;
  return header;
}

/** Errors that answer with a `WWW-Authenticate: Bearer` challenge. */
export abstract class BearerError extends PlantStoreError {
  abstract readonly challenge: BearerChallenge;

  override get headers(): Readonly<Record<string, string>> {
    return { 'www-authenticate': renderBearerChallenge(DEFAULT_REALM, this.challenge) };
  }
}

/** 400 `invalid_request`: the `Authorization` header is there but is not one well-formed bearer credential. */
export class MalformedAuthorizationError extends BearerError {
  override readonly name = 'MalformedAuthorizationError';
  readonly challenge: BearerChallenge;

  constructor(
    code: 'authorization_malformed' | 'authorization_repeated',
    message: string,
    options?: PlantStoreErrorOptions,
  ) {
    super(400, code, message, options);
    this.challenge = { error: 'invalid_request', description: message };
  }
}

/** 401 without an error attribute: the request carried no bearer token (RFC 6750 §3.1). */
export class MissingTokenError extends BearerError {
  override readonly name = 'MissingTokenError';
  readonly challenge: BearerChallenge = {};

  constructor(message = 'A bearer token is required in the Authorization header.') {
    super(401, 'token_missing', message);
  }
}

/** 401 `invalid_token`: a token was sent and failed verification. The why stays in `cause`. */
export class InvalidTokenError extends BearerError {
  override readonly name = 'InvalidTokenError';
  readonly challenge: BearerChallenge;

  constructor(code: PlantStoreErrorCode, description: string, options?: PlantStoreErrorOptions) {
    super(401, code, `The bearer token is not valid: ${description}`, options);
    this.challenge = { error: 'invalid_token', description };
  }
}

/** 403 `insufficient_scope`: the token is valid but lacks a scope the route requires. */
export class InsufficientScopeError extends BearerError {
  override readonly name = 'InsufficientScopeError';
  readonly challenge: BearerChallenge;

  constructor(requiredScopes: readonly string[]) {
    const scope = requiredScopes.join(' ');
    super(403, 'scope_insufficient', `The bearer token lacks a required scope: ${scope}.`);
    this.challenge = {
      error: 'insufficient_scope',
      description: 'The token lacks a required scope',
      scope,
    };
  }
}

/** One offending field of a body that failed the schema. */
export interface FieldIssue {
  /** The field, as a JSON pointer-like dotted path (`id`, `name`). */
  readonly field: string;
  readonly code: PlantStoreErrorCode;
  /** What was wrong, in words, without the submitted value. */
  readonly message: string;
}

/** 400: the body is not one strict JSON object of the NewPlant shape. */
export class InvalidBodyError extends PlantStoreError {
  override readonly name = 'InvalidBodyError';
  /** Every offending field, when the body was JSON but failed the schema. */
  readonly issues: readonly FieldIssue[];

  constructor(
    code: PlantStoreErrorCode,
    message: string,
    options?: PlantStoreErrorOptions & { readonly issues?: readonly FieldIssue[] },
  ) {
    super(400, code, message, options);
    this.issues = options?.issues ?? [];
  }
}

/** 408: the body did not arrive within the read time-out. */
export class RequestTimeoutError extends PlantStoreError {
  override readonly name = 'RequestTimeoutError';

  constructor(timeoutMs: number) {
    super(408, 'body_timeout', `The request body did not arrive within ${timeoutMs} ms.`);
  }
}

/** 409: a plant with this id exists with other content. Says nothing of what is stored. */
export class ConflictError extends PlantStoreError {
  override readonly name = 'ConflictError';

  constructor() {
    super(
      409,
      'id_conflict',
      'A plant with this id already exists with a different name or tag; nothing was changed.',
    );
  }
}

/** 404: the path is not the route's. Only the stand-alone entries answer it; adapters pass on. */
export class NotFoundError extends PlantStoreError {
  override readonly name = 'NotFoundError';

  constructor() {
    super(
      404,
      'route_not_found',
      'There is no route at this path; plants are created with POST /plants.',
    );
  }
}

/** 405: the route's path with another method. Only the stand-alone entries answer it; adapters pass on. */
export class MethodNotAllowedError extends PlantStoreError {
  override readonly name = 'MethodNotAllowedError';

  constructor() {
    super(405, 'method_not_allowed', 'Only POST is allowed on this route.');
  }

  override get headers(): Readonly<Record<string, string>> {
    return { allow: 'POST' };
  }
}

/** 413: the body is larger than the limit. */
export class PayloadTooLargeError extends PlantStoreError {
  override readonly name = 'PayloadTooLargeError';

  constructor(limitBytes: number) {
    super(413, 'body_too_large', `The request body exceeds the limit of ${limitBytes} bytes.`);
  }
}

/** 415: not `application/json` in UTF-8, or a compressed body. */
export class UnsupportedMediaTypeError extends PlantStoreError {
  override readonly name = 'UnsupportedMediaTypeError';

  constructor(code: 'media_type_unsupported' | 'content_encoding_unsupported', message: string) {
    super(415, code, message);
  }
}

/** 503: the store or the identity provider is unavailable; the client may retry after `retryAfter` s. */
export class ServiceUnavailableError extends PlantStoreError {
  override readonly name = 'ServiceUnavailableError';
  declare readonly code: 'jwks_unavailable' | 'store_timeout' | 'store_unavailable';
  readonly retryAfter: number;

  constructor(
    code: 'jwks_unavailable' | 'store_timeout' | 'store_unavailable',
    message: string,
    options?: PlantStoreErrorOptions & { readonly retryAfter?: number },
  ) {
    super(503, code, message, options);
    this.retryAfter = options?.retryAfter ?? 5;
  }

  override get headers(): Readonly<Record<string, string>> {
    return { 'retry-after': String(this.retryAfter) };
  }
}

/** 500: the store, the verifier or a hook failed unexpectedly. The client sees a generic message. */
export class InternalServerError extends PlantStoreError {
  override readonly name = 'InternalServerError';

  constructor(
    code: 'store_failed' | 'auth_failed' | 'hook_failed' | 'internal_error',
    message: string,
    options?: PlantStoreErrorOptions,
  ) {
    super(500, code, message, options);
  }
}
