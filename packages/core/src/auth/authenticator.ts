import type { AuthScheme } from '../errors/challenges';
import type { Principal } from './principal';
import type { ClientCertificate } from './mtls/client-certificate';

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
  /**
   * The TLS client certificate the request came with (RFC 8705): from the connection, or from the
   * service's `clientCertificateHeader` when a trusted proxy terminates TLS. `undefined` without
   * one. The service reads it only when asked (a getter), once per connection: read it only when
   * your verifier needs it.
   *
   * @example
   * ```ts
   * const verify: Authenticator['verify'] = async (token, request) =>
   *   request.clientCertificate?.thumbprint === expectedThumbprint ? principal : undefined;
   * ```
   */
  readonly clientCertificate?: ClientCertificate | undefined;
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
  /**
   * Certificate-bound tokens (RFC 8705) are checked against the request's client certificate;
   * `required` when every token must be bound to one. `undefined` when certificate binding is not
   * checked. Optional, so verifiers written before it still compile.
   */
  readonly mtls?: { readonly required: boolean } | undefined;
  /** The issuers whose tokens are accepted. */
  readonly issuers: readonly string[];
  /**
   * The issuers clients may ask for tokens (RFC 9728 `authorization_servers`): OAuth authorization
   * servers, whose identifiers are `https:` URLs. Without it, the `issuers` that are such URLs.
   * `jwtBearer` names those whose keys come from a `jwksUri`, never a shared-secret issuer.
   */
  readonly authorizationServers?: readonly string[];
  /** The audiences a token may name. */
  readonly audiences: readonly string[];
  /** The scopes every token must grant. */
  readonly scopes: readonly string[];
}

/**
 * The one shape of token verification. `jwtBearer()` returns one; a verifier of your own (opaque
 * tokens, introspection, a service token) is one too, and needs only `verify`.
 *
 * `verify` resolves the principal, or `undefined` to refuse the token (401 `token_rejected`). It may
 * reject with a Plantstore error: `InvalidTokenError` (401), `InsufficientScopeError` (403), or
 * `ServiceUnavailableError('jwks_unavailable', …)` when the identity provider cannot be reached
 * (503). Any other rejection is a fault of the verifier: 500 `auth_failed`, the error in `cause`.
 *
 * @example
 * ```ts
 * const auth: Authenticator = {
 *   verify: async (token) =>
 *     token === process.env.SERVICE_TOKEN ? { subject: 'svc', scopes: [], claims: {} } : undefined,
 * };
 * ```
 */
export interface Authenticator {
  verify(token: string, request: AuthRequest): Promise<Principal | undefined>;
  /** Warms what can be warmed (fetches the JWKS); the service's `ready()` calls it. */
  ready?(): Promise<void>;
  /** Releases what the verifier holds; the service's `close()` calls it. */
  close?(): Promise<void>;
  /** What the verifier accepts; without it, Bearer tokens only. */
  readonly accepts?: AcceptedCredentials;
}
