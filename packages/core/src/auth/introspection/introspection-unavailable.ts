import { ServiceUnavailableError } from '../../errors/server-errors';
import { InternalServerError } from '../../errors/server-errors';

// An outage of the provider is rarely over within a second; 5 s spreads the clients' retries.
const RETRY_AFTER_S = 5;

/**
 * The 503 of an introspection that got no usable answer: the provider is down, slow or broken, which
 * is not the client's fault, so never a 401. The client may retry after `Retry-After`.
 *
 * @param reason - what went wrong, for `cause` (never the token)
 * @param cause - the underlying error, if any
 * @param retryAfter - seconds the client should wait; default 5
 * @returns the error to reject with
 * @example
 * ```ts
 * throw introspectionUnavailable('The introspection endpoint answered HTTP 502');
 * ```
 */
export function introspectionUnavailable(
  reason: string,
  cause?: unknown,
  retryAfter: number = RETRY_AFTER_S,
): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'introspection_unavailable',
    'The token cannot be checked now.',
    {
      cause: cause === undefined ? new Error(reason) : new Error(reason, { cause }),
      retryAfter,
    },
  );
}

/**
 * The 500 of an introspection endpoint that refuses the resource server's own credentials (HTTP 401
 * or 403), or of metadata naming another issuer: the server's set-up is wrong, retrying will not
 * help, and the client's token was never judged. It reaches `onError` with the reason in `cause`.
 *
 * @param reason - what went wrong
 * @returns the error to reject with
 * @example
 * ```ts
 * throw introspectionMisconfigured('The introspection endpoint refused our client credentials (HTTP 401)');
 * ```
 */
export function introspectionMisconfigured(reason: string): InternalServerError {
  return new InternalServerError('auth_failed', 'The token cannot be checked.', {
    cause: new Error(reason),
  });
}
