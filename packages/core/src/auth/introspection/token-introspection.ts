import type { AcceptedCredentials, AuthRequest, Authenticator } from '../authenticator';
import { exactAuthenticator } from '../authenticate';
import { MAX_TOKEN_LENGTH } from '../compact-jws';
import { InsufficientScopeError, InvalidTokenError } from '../../errors/bearer-errors';
import type { Principal } from '../principal';
import { refusedWith } from '../refused-principal';
import { createVerifiedTokenCache } from '../verified-token-cache';
import { checkAnswer, type AcceptedAnswer } from './check-answer';
import { discoverEndpoint } from './discover-endpoint';
import { introspect } from './introspect';
import { introspectionAccepts } from './introspection-accepts';
import { resolveTokenIntrospectionOptions } from './options/introspection-options';
import type { TokenIntrospectionOptions } from './options/introspection-option-types';

export type {
  IntrospectionClientAuthentication,
  TokenIntrospectionCacheOptions,
  TokenIntrospectionOptions,
} from './options/introspection-option-types';

// Three base64url segments: a JWT, for `jwt`; an opaque token of a provider holds no dots.
const JWS_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
// The cache never changes key sets: its entries are filed under one version.
const VERSION = 0;

/** What {@link tokenIntrospection} returns: an {@link Authenticator} whose every member is there. */
export interface TokenIntrospection extends Authenticator {
  /** Its issuer, audiences and scopes, merged with those of `jwt`. */
  readonly accepts: AcceptedCredentials;
  /** Resolves the principal, or rejects with a Plantstore error; never resolves `undefined`. */
  verify(token: string, request?: AuthRequest): Promise<Principal>;
  /** Discovers the endpoint (when not given), and readies `jwt`. */
  ready(): Promise<void>;
  /** Closes `jwt`. */
  close(): Promise<void>;
}

/**
 * Creates an {@link Authenticator} for opaque access tokens: each is sent to the authorization
 * server's introspection endpoint (RFC 7662), and the answer gets the checks a JWT's claims get
 * (`active`, `exp`, `nbf`, `iss`, `aud`, `client_id`, scopes). Active answers are cached until the
 * token's `exp` (at most `cache.maxAgeMs`); concurrent requests with one token share one call; a
 * JWT-shaped token goes to `jwt` when given.
 *
 * @param options - the issuer, the endpoint (or discovery), the client credentials and the checks,
 *   see {@link TokenIntrospectionOptions}
 * @returns the authenticator; its `verify` resolves `{ subject: sub, scopes, claims: answer }` or
 *   rejects with `InvalidTokenError` (401, such as `token_inactive`), `InsufficientScopeError` (403),
 *   `ServiceUnavailableError` (503 `introspection_unavailable`, with `Retry-After`) or
 *   `InternalServerError` (500 `auth_failed`: the endpoint refuses our client credentials)
 * @throws TypeError naming the option: unknown, missing or conflicting options
 * @example
 * ```ts
 * const auth = tokenIntrospection({
 *   issuer: 'https://id.example.com',
 *   clientId: 'plants-api',
 *   clientSecret: process.env.INTROSPECTION_SECRET,
 *   audience: 'https://api.example.com/plants',
 *   requiredScopes: ['plants:write'],
 * });
 * ```
 */
export function tokenIntrospection(options: TokenIntrospectionOptions): TokenIntrospection {
  const config = resolveTokenIntrospectionOptions(options);
  const accepts = introspectionAccepts(config);
  const { issuer, credentials, timeoutMs, fetch, now, jwt, requiredScopes } = config;
  const cache = config.cache === false ? undefined : createVerifiedTokenCache(config.cache);
  const inFlight = new Map<string, Promise<AcceptedAnswer>>();
  let endpoint: Promise<URL> | undefined =
    config.endpoint === undefined ? undefined : Promise.resolve(config.endpoint);

  // Discovered once and kept; a failed discovery is forgotten, so the next request tries again.
  function endpointOf(): Promise<URL> {
    endpoint ??= discoverEndpoint(issuer, { timeoutMs, fetch }).catch((error: unknown) => {
      endpoint = undefined;
      throw error;
    });
    return endpoint;
  }

  // One call per token at a time: the requests that arrive meanwhile wait for its answer.
  function answerFor(token: string): Promise<AcceptedAnswer> {
    let pending = inFlight.get(token);
    if (pending !== undefined) return pending;
    pending = endpointOf()
      .then((url) =>
        introspect(token, { endpoint: url, issuer, credentials, timeoutMs, fetch, now }),
      )
      .then((answer) => {
        const accepted = checkAnswer(answer, config, now());
        cache?.set(token, accepted.principal, accepted.window, now(), VERSION);
        return accepted;
      });
    const settled = (): void => void inFlight.delete(token);
    pending.then(settled, settled);
    inFlight.set(token, pending);
    return pending;
  }

  function withScopes(principal: Principal): Principal {
    if (requiredScopes.every((scope) => principal.scopes.includes(scope))) return principal;
    throw refusedWith(new InsufficientScopeError(requiredScopes), principal);
  }

  return exactAuthenticator({
    verify(token: string, request?: AuthRequest): Promise<Principal> {
      if (jwt !== undefined && JWS_SHAPE.test(token)) return jwt.verify(token, request);
      try {
        if (token.length > MAX_TOKEN_LENGTH) {
          throw new InvalidTokenError('token_too_large', 'The token is larger than 16 KiB');
        }
        if (request?.scheme === 'DPoP') {
          // Opaque tokens' binding is not checked: the DPoP scheme cannot be honoured for them.
          throw new InvalidTokenError('token_not_dpop_bound', 'An opaque token is not DPoP-bound');
        }
        const cached = cache?.get(token, now(), VERSION);
        if (cached !== undefined) return Promise.resolve(withScopes(cached));
        return answerFor(token).then(({ principal }) => withScopes(principal));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
    accepts,
    ready: async () => {
      await Promise.all([config.endpoint === undefined ? endpointOf() : undefined, jwt?.ready()]);
    },
    close: async () => jwt?.close(),
  });
}
