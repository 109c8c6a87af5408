import type { JwtBearer } from '../../jwt/jwt-bearer';
import { clientAssertionKey, type ClientAssertionKey } from '../client-assertion-key';
import { isIssuerUrl, secureUrlOption } from '../../issuer-url';
import { tokenCacheOptions, type TokenCacheConfig } from '../../token-cache-options';
import {
  checkKnownOptions,
  describeValue,
  MAX_TIMER_MS,
  optionalFunction,
  optionError,
  stringList,
  wholeNumber,
} from '../../../options/check-options';
import type {
  IntrospectionClientAuthentication,
  TokenIntrospectionOptions,
} from './introspection-option-types';

/** How the introspection request is authenticated, checked. */
export type ClientCredentials =
  | {
      readonly method: 'client_secret_basic' | 'client_secret_post';
      readonly clientId: string;
      readonly secret: string;
    }
  | {
      readonly method: 'private_key_jwt';
      readonly clientId: string;
      readonly key: ClientAssertionKey;
    };

/** Checked `tokenIntrospection` options, every default applied. */
export interface TokenIntrospectionConfig {
  readonly issuer: string;
  /** `undefined`: discovered from the issuer's metadata. */
  readonly endpoint: URL | undefined;
  readonly credentials: ClientCredentials;
  /** Empty when `aud` is not checked. */
  readonly audiences: readonly string[];
  /** Empty when `client_id` is not checked. */
  readonly clients: readonly string[];
  readonly requiredScopes: readonly string[];
  readonly jwt: JwtBearer | undefined;
  readonly cache: TokenCacheConfig;
  readonly maxConcurrentCalls: number;
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
  readonly now: () => number;
}

const FACTORY = 'tokenIntrospection';
// Enough for a busy API's new tokens (each call takes tens of milliseconds, and a token is asked
// about once per cache period), small enough that a flood of junk tokens cannot spend the
// authorization server's rate limit.
const DEFAULT_MAX_CONCURRENT_CALLS = 16;
const KNOWN = new Set([
  ...['issuer', 'endpoint', 'clientId', 'clientSecret', 'privateKey', 'clientAuthentication'],
  ...['audience', 'clients', 'requiredScopes', 'jwt', 'cache', 'maxConcurrentCalls'],
  ...['timeoutMs', 'fetch', 'now'],
]);
const NON_EMPTY = { pattern: /^./s, items: 'non-empty strings', emptyAllowed: false };
// RFC 6749 §3.3 scope-token, as jwtBearer reads `requiredScopes`.
const SCOPE_TOKENS = {
  pattern: /^[\x21\x23-\x5b\x5d-\x7e]+$/,
  items: 'scope tokens (no space, quote, backslash)',
  emptyAllowed: true,
};
const METHODS = new Set(['client_secret_basic', 'client_secret_post', 'private_key_jwt']);

function text(option: string, value: unknown): string {
  if (typeof value === 'string' && value !== '') return value;
  return optionError(FACTORY, option, 'must be a non-empty string', describeValue(value));
}

function credentials(
  options: TokenIntrospectionOptions & Record<string, unknown>,
): ClientCredentials {
  const clientId = text('clientId', options.clientId);
  const { clientSecret, privateKey, clientAuthentication } = options;
  if (clientAuthentication !== undefined && !METHODS.has(clientAuthentication)) {
    optionError(
      FACTORY,
      'clientAuthentication',
      'must be client_secret_basic, client_secret_post or private_key_jwt',
      describeValue(clientAuthentication),
    );
  }
  if ((clientSecret === undefined) === (privateKey === undefined)) {
    const received = clientSecret === undefined ? 'neither' : 'both';
    optionError(FACTORY, 'clientSecret', 'or privateKey must be given, not both', received);
  }
  const method: IntrospectionClientAuthentication =
    clientAuthentication ?? (privateKey === undefined ? 'client_secret_basic' : 'private_key_jwt');
  if (privateKey !== undefined) {
    if (method !== 'private_key_jwt') {
      optionError(
        FACTORY,
        'clientAuthentication',
        'must be private_key_jwt with privateKey',
        method,
      );
    }
    return { method, clientId, key: clientAssertionKey(privateKey) };
  }
  if (method === 'private_key_jwt') {
    optionError(FACTORY, 'privateKey', 'is required by private_key_jwt', 'undefined');
  }
  return { method, clientId, secret: text('clientSecret', clientSecret) };
}

function jwtOption(value: unknown): JwtBearer | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'object' && value !== null && 'verify' in value) {
    if (typeof value.verify === 'function') return value as JwtBearer;
  }
  return optionError(FACTORY, 'jwt', 'must be what jwtBearer() returns', describeValue(value));
}

/**
 * Checks `tokenIntrospection` options and imports the private key, once, at start-up.
 *
 * @param options - what the host passed
 * @returns the complete config
 * @throws TypeError naming the option: an unknown name, a missing `issuer` or `clientId`, neither
 *   or both of `clientSecret` and `privateKey`, no `audience` and no `clients`, a bad URL or number
 * @example
 * ```ts
 * const config = resolveTokenIntrospectionOptions({ issuer, clientId, clientSecret, audience });
 * ```
 */
export function resolveTokenIntrospectionOptions(
  options: TokenIntrospectionOptions,
): TokenIntrospectionConfig {
  checkKnownOptions(FACTORY, options, KNOWN);
  const issuer = text('issuer', options.issuer);
  const endpoint =
    options.endpoint === undefined
      ? undefined
      : secureUrlOption(FACTORY, 'endpoint', options.endpoint);
  if (endpoint === undefined && !isIssuerUrl(issuer)) {
    optionError(FACTORY, 'issuer', 'must be an issuer URL to discover the endpoint', 'a name');
  }
  const audiences = stringList(FACTORY, 'audience', options.audience, NON_EMPTY) ?? [];
  const clients = stringList(FACTORY, 'clients', options.clients, NON_EMPTY) ?? [];
  if (audiences.length === 0 && clients.length === 0) {
    // Without either, a token the provider issued for any other API or client would be accepted.
    optionError(FACTORY, 'audience', 'or clients is required', 'neither');
  }
  return {
    issuer,
    endpoint,
    credentials: credentials(options),
    audiences,
    clients,
    requiredScopes:
      stringList(FACTORY, 'requiredScopes', options.requiredScopes, SCOPE_TOKENS) ?? [],
    jwt: jwtOption(options.jwt),
    cache: tokenCacheOptions(FACTORY, options.cache, 60_000),
    maxConcurrentCalls: wholeNumber(
      FACTORY,
      'maxConcurrentCalls',
      options.maxConcurrentCalls,
      { min: 1, max: 10_000 },
      DEFAULT_MAX_CONCURRENT_CALLS,
    ),
    timeoutMs: wholeNumber(
      FACTORY,
      'timeoutMs',
      options.timeoutMs,
      { min: 1, max: MAX_TIMER_MS },
      5000,
    ),
    fetch: optionalFunction<typeof fetch>(FACTORY, 'fetch', options.fetch) ?? globalThis.fetch,
    now: optionalFunction<() => number>(FACTORY, 'now', options.now) ?? Date.now,
  };
}
