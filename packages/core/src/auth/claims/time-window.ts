import { InvalidTokenError } from '../../errors/bearer-errors';
import type { TokenWindow } from '../verified-token-cache';

type Claims = Readonly<Record<string, unknown>>;

/** How a window is widened: clock skew, and the oldest `iat` accepted. In seconds. */
export interface WindowLimits {
  readonly clockTolerance?: number | undefined;
  readonly maxTokenAge?: number | undefined;
}

// A NumericDate claim (RFC 7519 §2), in seconds; undefined when absent.
function numericDate(claims: Claims, name: 'exp' | 'nbf' | 'iat'): number | undefined {
  const value = claims[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidTokenError('claim_invalid', `The ${name} claim is not a number`);
  }
  return value;
}

/**
 * The window, in epoch milliseconds, in which a token's `nbf`, `exp` and (with `maxTokenAge`) `iat`
 * let it be accepted: what a verified token may be answered from cache within, and what an
 * introspection answer is checked against. One computation for both paths; jose applies the same
 * rule to a JWT before this runs.
 *
 * @param claims - a token's claims, or an introspection answer
 * @param limits - clock tolerance and maximum age, in seconds (none for an introspection answer,
 *   which the authorization server judged on its own clock)
 * @returns the window; unbounded on a side whose claim is absent
 * @throws {@link InvalidTokenError} `claim_invalid` when a time claim is not a number
 * @example
 * ```ts
 * tokenWindow({ exp: 1_900_000_000 }, { clockTolerance: 5 }).validUntil; // 1_900_000_005_000
 * ```
 */
export function tokenWindow(claims: Claims, limits: WindowLimits = {}): TokenWindow {
  const tolerance = limits.clockTolerance ?? 0;
  const exp = numericDate(claims, 'exp');
  const nbf = numericDate(claims, 'nbf');
  const iat = limits.maxTokenAge === undefined ? undefined : numericDate(claims, 'iat');
  const expiry = exp === undefined ? Infinity : (exp + tolerance) * 1000;
  const ageLimit =
    limits.maxTokenAge === undefined || iat === undefined
      ? Infinity
      : (iat + limits.maxTokenAge + tolerance) * 1000;
  return {
    validFrom: nbf === undefined ? -Infinity : (nbf - tolerance) * 1000,
    validUntil: Math.min(expiry, ageLimit),
  };
}

/**
 * Refuses a token outside its window.
 *
 * @param window - from {@link tokenWindow}
 * @param now - the clock, in epoch milliseconds
 * @throws {@link InvalidTokenError} `token_expired` at or past its end, `token_not_yet_valid` before
 *   its start
 * @example
 * ```ts
 * assertWithinWindow(tokenWindow(answer), Date.now());
 * ```
 */
export function assertWithinWindow(window: TokenWindow, now: number): void {
  if (window.validUntil <= now) {
    throw new InvalidTokenError('token_expired', 'The token has expired');
  }
  if (window.validFrom > now) {
    throw new InvalidTokenError('token_not_yet_valid', 'The token is not yet valid');
  }
}
