import type {
  InsufficientScopeError,
  InvalidDpopProofError,
  InvalidTokenError,
  MalformedAuthorizationError,
  MissingTokenError,
  UseDpopNonceError,
} from './bearer-errors';
import type {
  ClaimMismatchError,
  ConflictError,
  InvalidBodyError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RequestTimeoutError,
  UnsupportedMediaTypeError,
} from './client-errors';
import type { InternalServerError, ServiceUnavailableError } from './server-errors';

/**
 * Every error the route answers with, as a union: narrowing on `name` (or `instanceof`) gives each
 * class's own `code` union and fields.
 *
 * @example
 * ```ts
 * const onRejected = (error: AnyPlantServiceError) => {
 *   if (error.name === 'InvalidBodyError') console.log(error.issues.length, error.code);
 * };
 * ```
 */
export type AnyPlantServiceError =
  | MalformedAuthorizationError
  | MissingTokenError
  | InvalidTokenError
  | InvalidDpopProofError
  | UseDpopNonceError
  | InsufficientScopeError
  | ClaimMismatchError
  | InvalidBodyError
  | RequestTimeoutError
  | ConflictError
  | NotFoundError
  | MethodNotAllowedError
  | PayloadTooLargeError
  | UnsupportedMediaTypeError
  | ServiceUnavailableError
  | InternalServerError;
