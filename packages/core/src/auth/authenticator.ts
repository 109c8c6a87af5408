import type { Principal } from './principal';

/** The parts of a request a verifier may look at besides the token. */
export interface AuthRequest {
  readonly method: string;
  readonly path: string;
  /** Header values by lower-case name; a header sent more than once has several values. */
  readonly headers: (name: string) => readonly string[] | undefined;
}

/**
 * A custom verifier, for opaque tokens or token introspection: resolves the principal, or
 * `undefined` to refuse the token (401 `invalid_token`). Throw a
 * `ServiceUnavailableError('jwks_unavailable', …)` when the identity provider cannot be reached (503).
 *
 * @example
 * ```ts
 * const verify: VerifyToken = async (token) =>
 *   token === process.env.SERVICE_TOKEN ? { subject: 'svc', scopes: [], claims: {} } : undefined;
 * ```
 */
export type VerifyToken = (token: string, request: AuthRequest) => Promise<Principal | undefined>;

/**
 * A bearer-token checker the service can use, such as the one {@link jwtBearer} returns. `verify`
 * resolves the principal or rejects with a Plantstore error (`InvalidTokenError`,
 * `InsufficientScopeError`, `ServiceUnavailableError`).
 */
export interface Authenticator {
  verify(token: string, request: AuthRequest): Promise<Principal>;
  /** Warms what can be warmed (fetches the JWKS). */
  ready(): Promise<void>;
  /** Releases what the checker holds. */
  close(): Promise<void>;
}
