import type { AcceptedCredentials, AuthRequest, Authenticator } from '../authenticator';
import { exactAuthenticator } from '../authenticate';
import { assertAudience } from '../claims/audience';
import { assertClient } from '../claims/client';
import { assertScopesGranted } from '../claims/scopes-granted';
import { MAX_TOKEN_LENGTH } from '../compact-jws';
import { InvalidTokenError } from '../../errors/bearer-errors';
import type { Principal } from '../principal';
import { refusedWith } from '../refused-principal';
import { createVerifiedTokenCache } from '../verified-token-cache';
import { createCallLimit } from './call-limit';
import { checkAnswer, type AcceptedAnswer } from './check-answer';
import { createEndpointSource } from './endpoint-source';
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
 * (`active`, `exp`, `nbf`, `iss`, `aud`, `client_id`, the token's kind, scopes). Active answers are
 * cached until the token's `exp` (at most `cache.maxAgeMs`); concurrent requests with one token share
 * one call, and at most `maxConcurrentCalls` calls run at once. A JWT-shaped token goes to `jwt`
 * when given, and must then pass this authenticator's `audience`, `clients` and `requiredScopes`
 * too.
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
  const { audiences, clients } = config;
  const cache = config.cache === false ? undefined : createVerifiedTokenCache(config.cache);
  const limit = createCallLimit(config.maxConcurrentCalls);
  const endpoint = createEndpointSource({
    endpoint: config.endpoint,
    issuer,
    timeoutMs,
    fetch,
    now,
  });
  const inFlight = new Map<string, Promise<AcceptedAnswer>>();

  // One call per token at a time: the requests that arrive meanwhile wait for its answer.
  function answerFor(token: string): Promise<AcceptedAnswer> {
    let pending = inFlight.get(token);
    if (pending !== undefined) return pending;
    pending = limit
      .run(() =>
        endpoint
          .get()
          .then((url) =>
            introspect(token, { endpoint: url, issuer, credentials, timeoutMs, fetch, now }),
          ),
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

  // A JWT that `jwt` verified meets this authenticator's own rules too: the route advertises one
  // audience, client and scope requirement, whichever kind of token comes.
  function authorizeJwt(principal: Principal): Principal {
    try {
      assertAudience(principal.claims, audiences);
      assertClient(principal.claims, clients);
    } catch (error) {
      throw refusedWith(error, principal);
    }
    return assertScopesGranted(principal, requiredScopes);
  }

  return exactAuthenticator({
    verify(token: string, request?: AuthRequest): Promise<Principal> {
      if (jwt !== undefined && JWS_SHAPE.test(token)) {
        return jwt.verify(token, request).then(authorizeJwt);
      }
      try {
        if (token.length > MAX_TOKEN_LENGTH) {
          throw new InvalidTokenError('token_too_large', 'The token is larger than 16 KiB');
        }
        if (request?.scheme === 'DPoP') {
          // Opaque tokens' binding is not checked: the DPoP scheme cannot be honoured for them.
          throw new InvalidTokenError('token_not_dpop_bound', 'An opaque token is not DPoP-bound');
        }
        const cached = cache?.get(token, now(), VERSION);
        if (cached !== undefined)
          return Promise.resolve(assertScopesGranted(cached, requiredScopes));
        return answerFor(token).then(({ principal }) =>
          assertScopesGranted(principal, requiredScopes),
        );
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
    accepts,
    ready: async () => {
      await Promise.all([config.endpoint === undefined ? endpoint.get() : undefined, jwt?.ready()]);
    },
    close: async () => jwt?.close(),
  });
}
