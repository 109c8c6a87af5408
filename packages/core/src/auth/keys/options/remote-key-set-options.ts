import {
  checkKnownOptions,
  nonNegativeNumber,
  optionError,
  RETRY_AFTER_RANGE,
  wholeNumber,
} from '../../../options/check-options';
import type { RemoteKeySetConfig } from '../remote-key-set';

/** Tuning of the remote key set behind `jwksUri`, in milliseconds (`retryAfter` in seconds). */
export interface JwtBearerJwksOptions {
  /** Abort a JWKS fetch after this long. Default 5000. */
  readonly timeoutMs?: number;
  /** At most one fetch per this interval for an unknown `kid`, or after a failed fetch. Default 30000. */
  readonly cooldownMs?: number;
  /** Refresh keys older than this. Default 600000 (10 min). */
  readonly maxAgeMs?: number;
  /** Serve the last good keys this long after their fetch while refreshes fail. Default 3600000 (1 h). */
  readonly staleMs?: number;
  /**
   * The longest `Retry-After`, in seconds, of the 503 answered when no usable keys are held; the 503
   * otherwise says when the next fetch may start (1 s, 2 s, 4 s, … as the back-off grows). Default 30.
   */
  readonly retryAfter?: number;
}

const KNOWN_JWKS = new Set(['timeoutMs', 'cooldownMs', 'maxAgeMs', 'staleMs', 'retryAfter']);

/**
 * Checks the `jwks` option and applies every default, once, so the key set can trust its config.
 *
 * @param given - the `jwks` option (`timeoutMs`, `cooldownMs`, `maxAgeMs`, `staleMs`, `retryAfter`)
 * @param fetchImpl - the `fetch` option
 * @param now - the `now` option
 * @param clockToleranceSeconds - the `clockTolerance` option
 * @param prefix - the option's name and a dot, in error messages (`issuers[1].jwks.` for an issuer's)
 * @returns the complete config
 * @throws TypeError naming the option
 * @example
 * ```ts
 * createRemoteKeySet(url, remoteKeySetConfig({ cooldownMs: 10_000 }));
 * ```
 */
export function remoteKeySetConfig(
  given: unknown,
  fetchImpl?: typeof fetch,
  now?: () => number,
  clockToleranceSeconds = 5,
  prefix = 'jwks.',
): RemoteKeySetConfig {
  const jwks: unknown = given ?? {};
  checkKnownOptions('jwtBearer', jwks, KNOWN_JWKS, prefix);
  const duration = (name: string, fallback: number): number =>
    nonNegativeNumber('jwtBearer', `${prefix}${name}`, jwks[name]) ?? fallback;
  const maxAgeMs = duration('maxAgeMs', 600_000);
  // Raising maxAgeMs alone past an hour must not make cached keys unusable before a refresh is due.
  const staleMs = duration('staleMs', Math.max(3_600_000, maxAgeMs));
  if (staleMs < maxAgeMs) {
    optionError(
      'jwtBearer',
      `${prefix}staleMs`,
      `must not be less than ${prefix}maxAgeMs`,
      String(staleMs),
    );
  }
  return {
    timeoutMs: duration('timeoutMs', 5_000),
    cooldownMs: duration('cooldownMs', 30_000),
    maxAgeMs,
    staleMs,
    retryAfter: wholeNumber(
      'jwtBearer',
      `${prefix}retryAfter`,
      jwks['retryAfter'],
      RETRY_AFTER_RANGE,
      30,
    ),
    fetch: fetchImpl ?? globalThis.fetch,
    now: now ?? Date.now,
    clockToleranceMs: clockToleranceSeconds * 1000,
  };
}

// What an entry's `jwks` sets; `fetch`, `now` and the clock tolerance are shared by every entry.
const TUNING = ['timeoutMs', 'cooldownMs', 'maxAgeMs', 'staleMs', 'retryAfter'] as const;

/**
 * Tells how two key-set configs differ, for entries of `issuers` that name one JWKS URL and so share
 * one key set, which has one tuning.
 *
 * @param given - the config of the later entry
 * @param held - the config of the entry that named the URL first
 * @returns the first difference (`cooldownMs 5000 against 30000`), or `undefined` when they agree
 * @example
 * ```ts
 * tuningDifference(remoteKeySetConfig({ cooldownMs: 5000 }), remoteKeySetConfig({}));
 * // 'cooldownMs 5000 against 30000'
 * ```
 */
export function tuningDifference(
  given: RemoteKeySetConfig,
  held: RemoteKeySetConfig,
): string | undefined {
  const name = TUNING.find((option) => given[option] !== held[option]);
  return name === undefined ? undefined : `${name} ${given[name]} against ${held[name]}`;
}
