import type { AuthRequest } from './authenticator';
import type { Principal } from './principal';
import type { ReplayStore } from './dpop/replay-store';
import type { JwsAlgorithm } from './keys/verification-key';
import { describeValue, optionError } from '../options/check-options';

/**
 * Checks a request's DPoP proof of the key a token is bound to (`cnf.jkt`), once the token is
 * verified; rejects with the proof's refusal, which carries the principal for the hooks.
 */
export type DpopProofCheck = (
  request: AuthRequest,
  token: string,
  boundKey: string,
  now: number,
  principal: Principal,
) => Promise<void>;

/**
 * DPoP (RFC 9449) for `jwtBearer({ dpop })`, made by `dpopBinding()`: the value carries the proof
 * check, so a `jwtBearer` configured without it never loads that code.
 */
export interface DpopBinding {
  readonly binding: 'dpop';
  /** Plain Bearer tokens are refused. */
  readonly required: boolean;
  /** The algorithms a proof may be signed with, as the challenge advertises them. */
  readonly algorithms: readonly JwsAlgorithm[];
  readonly replayStore: ReplayStore;
  /**
   * Creates the proof check, with `jwtBearer`'s clock tolerance.
   *
   * @param clockTolerance - seconds of clock skew allowed on a proof's `iat`
   */
  createProofCheck(clockTolerance: number): DpopProofCheck;
}

/**
 * Certificate-bound tokens (RFC 8705) for `jwtBearer({ mtls })`, made by `certificateBinding()`.
 */
export interface CertificateBinding {
  readonly binding: 'mtls';
  /** Tokens not bound to a client certificate are refused (401 `mtls_required`). */
  readonly required: boolean;
  /**
   * Accepts a token bound to `x5t` only from a request with that certificate.
   *
   * @throws InvalidTokenError `certificate_mismatch`, carrying the principal
   */
  check(x5t: string, request: AuthRequest, principal: Principal): void;
}

const MAKERS = { dpop: 'dpopBinding', mtls: 'certificateBinding' } as const;

/**
 * Reads `jwtBearer`'s `dpop` or `mtls` option: a value its maker function made, or nothing. `true`
 * and a plain options object (the API before 0.1) are refused, never read as "off": a configuration
 * that asks for a binding check gets it or does not start.
 *
 * @param option - `dpop` or `mtls`
 * @param value - the option as given
 * @returns the binding, or `undefined` when the option is absent or `false`
 * @throws TypeError naming the function to import
 * @example
 * ```ts
 * bindingOption('dpop', dpopBinding({ required: true }))?.required; // true
 * ```
 */
export function bindingOption<K extends keyof typeof MAKERS>(
  option: K,
  value: unknown,
): (K extends 'dpop' ? DpopBinding : CertificateBinding) | undefined {
  if (value === undefined || value === false) return undefined;
  const object = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (object && (value as { binding?: unknown }).binding === option) {
    return value as K extends 'dpop' ? DpopBinding : CertificateBinding;
  }
  const maker = MAKERS[option];
  const options = object && !('binding' in value) ? '{ …the same options }' : '';
  return optionError(
    'jwtBearer',
    option,
    `must be made by ${maker}(): import { ${maker} } from '@plantstore/core' and pass ` +
      `\`${option}: ${maker}(${options})\``,
    describeValue(value),
  );
}
