import type { AuthScheme } from '../errors/bearer-errors';
import type { Principal } from './principal';

/** The parts of a request a verifier may look at besides the token. */
export interface AuthRequest {
  readonly method: string;
  readonly path: string;
  /** Header values by lower-case name; a header sent more than once has several values. */
  readonly headers: (name: string) => readonly string[] | undefined;
  /** The scheme the token came with: `DPoP` only when the verifier accepts DPoP. Default `Bearer`. */
  readonly scheme?: AuthScheme | undefined;
  /**
   * The URL the client sent the request to, without query and fragment: the service's `publicUrl`
   * and the path as the client sent it, never the `Host` header. `undefined` without `publicUrl`.
   */
  readonly url?: string | undefined;
}

/**
 * What a verifier accepts, fixed at start-up: the service builds its `WWW-Authenticate` challenges
 * and its RFC 9728 metadata from it.
 */
export interface AcceptedCredentials {
  /** Plain Bearer tokens are accepted (false when DPoP is required). */
  readonly bearer: boolean;
  /** DPoP-bound tokens are accepted, with proofs signed by one of `algorithms`. */
  readonly dpop: { readonly algorithms: readonly string[]; readonly required: boolean } | undefined;
  /** The issuers whose tokens are accepted (RFC 9728 `authorization_servers`). */
  readonly issuers: readonly string[];
  /** The audiences a token may name. */
  readonly audiences: readonly string[];
  /** The scopes every token must grant. */
  readonly scopes: readonly string[];
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
  /** What the checker accepts; without it, Bearer tokens only. */
  readonly accepts?: AcceptedCredentials;
}
