import type { VerifiedTokenCacheOptions } from '../../verified-token-cache';
import type { JwtBearerOptions } from './jwt-bearer-option-types';
import { resolveIssuerOptions, type SharedIssuerSettings } from './issuer-options';
import type { IssuerVerifierConfig } from '../issuer-verifier';
import { resolveSeveralIssuers } from './several-issuers-options';
import { isIssuerUrl } from '../../issuer-url';
import {
  bindingOption,
  type CertificateBinding,
  type DpopBinding,
} from '../../proof-of-possession';
import { tokenCacheOptions } from '../../token-cache-options';
import {
  checkKnownOptions,
  nonNegativeNumber,
  optionalFunction,
  optionError,
  stringList,
  type StringListRule,
} from '../../../options/check-options';

export type { JwtBearerJwksOptions } from '../../keys/options/remote-key-set-options';
export type {
  JwtBearerAudienceCheck,
  JwtBearerIssuerFields,
  JwtBearerIssuerOptions,
  JwtBearerOptionFields,
  JwtBearerOptions,
} from './jwt-bearer-option-types';

/** Checked `jwtBearer` options: one verifier config per issuer, and what they share. */
export interface JwtBearerConfig {
  /** One per issuer, in the order given; a single one without `issuers`. */
  readonly verifiers: readonly [IssuerVerifierConfig, ...IssuerVerifierConfig[]];
  /** With `issuers`: a token's `iss` selects the verifier that may verify it, and no other may. */
  readonly selectByIssuer: boolean;
  /** Every accepted `iss`, each once, in the order given. Empty when `iss` is not checked. */
  readonly issuers: readonly string[];
  /**
   * The accepted `iss` values that are authorization servers (RFC 9728 `authorization_servers`):
   * issuer URLs whose keys come from a `jwksUri`, each once, in the order given.
   */
  readonly authorizationServers: readonly string[];
  /** Every accepted `aud`, each once, in the order given. Empty when `aud` is not checked. */
  readonly audiences: readonly string[];
  readonly requiredScopes: readonly string[];
  readonly now: (() => number) | undefined;
  /** Seconds of clock skew allowed on token times, and on a DPoP proof's `iat`. */
  readonly clockTolerance: number;
  readonly cache: VerifiedTokenCacheOptions | false;
  /** DPoP, as `dpopBinding()` made it; `undefined` when DPoP is off. */
  readonly dpop: DpopBinding | undefined;
  /** Certificate binding, as `certificateBinding()` made it; `undefined` when certificates are not checked. */
  readonly mtls: CertificateBinding | undefined;
}

// Unknown names are refused, so a typo such as `audiance` fails at start-up instead of disabling a check.
const KNOWN = new Set([
  ...['secret', 'publicKey', 'jwksUri', 'issuer', 'audience', 'algorithms', 'clockTolerance'],
  ...['maxTokenAge', 'requiredClaims', 'requiredScopes', 'jwks', 'fetch', 'now', 'cache'],
  ...['typ', 'profile', 'scopeClaims', 'issuers', 'dpop', 'mtls'],
  ...['clients', 'tenants', 'tenantClaim'],
]);
// RFC 6749 §3.3 scope-token; it also keeps `"` and `\` out of the `scope="…"` challenge.
export const SCOPE_TOKENS: StringListRule = {
  pattern: /^[\x21\x23-\x5b\x5d-\x7e]+$/,
  items: 'scope tokens (no space, quote, backslash)',
  emptyAllowed: true,
};

/**
 * The issuers a client could ask for a token: URLs (RFC 8414 §2) whose keys are published. A
 * shared-secret issuer is an in-house signer, not an OAuth server, and naming it would tell an attacker
 * which `iss` to forge HMAC tokens for; a static public key is not discoverable either.
 */
function authorizationServers(verifiers: readonly IssuerVerifierConfig[]): string[] {
  const published = verifiers.filter(({ source }) => 'url' in source);
  return accepted(published.map(acceptedIssuers)).filter(isIssuerUrl);
}

/** An issuer's accepted `iss` values: a tenant template's written out for its allow-list. */
function acceptedIssuers(verifier: IssuerVerifierConfig): string | readonly string[] | undefined {
  return verifier.tenant === undefined ? verifier.verifyOptions.issuer : verifier.tenant.listed;
}

/** The values of jose's `issuer` or `audience` option over every verifier, each once. */
function accepted(lists: readonly (string | readonly string[] | undefined)[]): string[] {
  return [...new Set(lists.flatMap((list) => (list === undefined ? [] : list)))];
}

/**
 * Checks `jwtBearer` options and imports the keys, once, at start-up.
 *
 * @param options - what the host passed to `jwtBearer`
 * @returns one verifier config per issuer, whether `iss` selects among them, the accepted issuers
 *   and audiences, the required scopes and the cache's limits
 * @throws TypeError naming the option: unknown names, not exactly one key, `none` or an algorithm
 *   that does not fit the key, a short secret, an unusable key or URL, a negative or NaN number, an
 *   option of `issuers` (`issuers[1].audience`) or one that belongs in it
 * @example
 * ```ts
 * const { issuers } = resolveJwtBearerOptions({ secret, issuer: 'https://id.example.com/' });
 * ```
 */
export function resolveJwtBearerOptions(options: JwtBearerOptions): JwtBearerConfig {
  checkKnownOptions('jwtBearer', options, KNOWN);
  const shared: SharedIssuerSettings = {
    fetch: optionalFunction<typeof fetch>('jwtBearer', 'fetch', options.fetch),
    now: optionalFunction<() => number>('jwtBearer', 'now', options.now),
    clockTolerance: nonNegativeNumber('jwtBearer', 'clockTolerance', options.clockTolerance) ?? 5,
  };
  const verifiers =
    options.issuers === undefined
      ? ([resolveIssuerOptions(options, shared, { prefix: '', entry: false })] as const)
      : resolveSeveralIssuers(options, shared);
  if (options.fetch !== undefined && !verifiers.some(({ source }) => 'url' in source)) {
    optionError('jwtBearer', 'fetch', 'applies only with jwksUri', 'a value');
  }
  return {
    verifiers,
    selectByIssuer: options.issuers !== undefined,
    issuers: accepted(verifiers.map(acceptedIssuers)),
    authorizationServers: authorizationServers(verifiers),
    audiences: accepted(verifiers.map(({ verifyOptions }) => verifyOptions.audience)),
    requiredScopes:
      stringList('jwtBearer', 'requiredScopes', options.requiredScopes, SCOPE_TOKENS) ?? [],
    now: shared.now,
    clockTolerance: shared.clockTolerance,
    cache: tokenCacheOptions('jwtBearer', options.cache, 300_000),
    dpop: bindingOption('dpop', options.dpop),
    mtls: bindingOption('mtls', options.mtls),
  };
}
