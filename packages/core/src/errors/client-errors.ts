import type {
  ClaimMismatchCode,
  ConflictCode,
  FieldIssueCode,
  InvalidBodyCode,
  MethodNotAllowedCode,
  NotFoundCode,
  PayloadTooLargeCode,
  RequestTimeoutCode,
  UnsupportedMediaTypeCode,
} from './error-codes';
import { PlantServiceError, type PlantServiceErrorOptions } from './plant-service-error';

/** One offending field of a body that failed the schema. */
export interface FieldIssue {
  /** The field, as a JSON pointer-like dotted path (`id`, `name`). */
  readonly field: string;
  readonly code: FieldIssueCode;
  /** What was wrong, in words, without the submitted value. */
  readonly message: string;
}

/** 400: the body is not one strict JSON object of the NewPlant shape. */
export class InvalidBodyError extends PlantServiceError<InvalidBodyCode> {
  override readonly name = 'InvalidBodyError';
  /** Every offending field, when the body was JSON but failed the schema. */
  readonly issues: readonly FieldIssue[];

  constructor(
    code: InvalidBodyCode,
    message: string,
    options?: PlantServiceErrorOptions & { readonly issues?: readonly FieldIssue[] },
  ) {
    super(400, code, message, options);
    this.issues = options?.issues ?? [];
  }
}

/** 408: the body did not arrive within the read time-out. */
export class RequestTimeoutError extends PlantServiceError<RequestTimeoutCode> {
  override readonly name = 'RequestTimeoutError';

  constructor(timeoutMs: number) {
    super(408, 'body_timeout', `The request body did not arrive within ${timeoutMs} ms.`);
  }
}

/**
 * 409: a plant with this id exists with other content, or was created by another caller. The same
 * answer for both, so that it says nothing of what is stored, nor whose it is.
 */
export class ConflictError extends PlantServiceError<ConflictCode> {
  override readonly name = 'ConflictError';

  constructor() {
    super(
      409,
      'id_conflict',
      'A plant with this id already exists with a different name or tag, or for another caller; ' +
        'nothing was changed.',
    );
  }
}

/**
 * 404: the path is not the route's. Only the stand-alone entries answer it; adapters pass on. The
 * message names the route's path as the service serves it, base path included.
 */
export class NotFoundError extends PlantServiceError<NotFoundCode> {
  override readonly name = 'NotFoundError';

  /** @param routePath - the route's path, base path included: `/api/plants` */
  constructor(routePath = '/plants') {
    super(
      404,
      'route_not_found',
      `There is no route at this path; plants are created with POST ${routePath}.`,
    );
  }
}

/** 405: the route's path with another method. Only the stand-alone entries answer it; adapters pass on. */
export class MethodNotAllowedError extends PlantServiceError<MethodNotAllowedCode> {
  override readonly name = 'MethodNotAllowedError';
  /** The methods the resource allows, as the `Allow` header lists them. */
  readonly allow: string;

  constructor(allow = 'POST') {
    super(
      405,
      'method_not_allowed',
      allow === 'POST' ? 'Only POST is allowed on this route.' : `Only ${allow} are allowed here.`,
    );
    this.allow = allow;
  }

  override get headers(): Readonly<Record<string, string>> {
    return { allow: this.allow };
  }
}

/**
 * 403 `claim_mismatch`: a guard's `claims` check refused a valid token. It carries no
 * `WWW-Authenticate`: RFC 6750's `insufficient_scope` says another scope would do, and no scope
 * changes a claim such as a tenant or a role. The message names the claim, never its value.
 */
export class ClaimMismatchError extends PlantServiceError<ClaimMismatchCode> {
  override readonly name = 'ClaimMismatchError';
  /** The claim whose check failed. */
  readonly claim: string;

  /** @param claim - the name of the claim whose check failed */
  constructor(claim: string) {
    super(
      403,
      'claim_mismatch',
      `The bearer token's ${claim} claim is not one this route accepts.`,
    );
    this.claim = claim;
  }
}

/** 413: the body is larger than the limit. */
export class PayloadTooLargeError extends PlantServiceError<PayloadTooLargeCode> {
  override readonly name = 'PayloadTooLargeError';

  constructor(limitBytes: number) {
    super(413, 'body_too_large', `The request body exceeds the limit of ${limitBytes} bytes.`);
  }
}

/**
 * 415: not `application/json` in UTF-8, or a compressed body. The answer says what would have been
 * accepted (RFC 9110 §15.5.16): `Accept: application/json` for the media type, `Accept-Encoding:
 * identity` for a content coding.
 */
export class UnsupportedMediaTypeError extends PlantServiceError<UnsupportedMediaTypeCode> {
  override readonly name = 'UnsupportedMediaTypeError';

  constructor(code: UnsupportedMediaTypeCode, message: string) {
    super(415, code, message);
  }

  override get headers(): Readonly<Record<string, string>> {
    return this.code === 'media_type_unsupported'
      ? { accept: 'application/json' }
      : { 'accept-encoding': 'identity' };
  }
}
