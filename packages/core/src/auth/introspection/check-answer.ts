import { InvalidTokenError } from '../../errors/bearer-errors';
import type { InvalidTokenCode } from '../../errors/error-codes';
import { assertAudience } from '../claims/audience';
import { assertClient } from '../claims/client';
import { assertWithinWindow, tokenWindow } from '../claims/time-window';
import { assertAccessToken } from '../claims/token-kind';
import type { Principal } from '../principal';
import { principalOf } from '../principal-of';
import type { TokenWindow } from '../verified-token-cache';
import { introspectionUnavailable } from './introspection-unavailable';
import type { IntrospectionAnswer } from './introspect';

/** What the answer is checked against. */
export interface AnswerChecks {
  readonly issuer: string;
  /** Empty: `aud` is not checked. */
  readonly audiences: readonly string[];
  /** Empty: `client_id` is not checked. */
  readonly clients: readonly string[];
}

/** An active answer that passed every check: its principal, and when it may be answered from cache. */
export interface AcceptedAnswer {
  readonly principal: Principal;
  readonly window: TokenWindow;
}

const SCOPE_CLAIMS = ['scope'];

function refuse(code: InvalidTokenCode, message: string): never {
  throw new InvalidTokenError(code, message);
}

// RFC 7662 §2.2's `token_type` is RFC 6749's: an access token of ours is `Bearer`.
function checkTokenType(answer: IntrospectionAnswer): void {
  const type = answer['token_type'];
  if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) {
    refuse('token_type_mismatch', 'The token is not a Bearer access token');
  }
}

function checkBinding(answer: IntrospectionAnswer): void {
  const cnf = answer['cnf'];
  if (cnf === undefined) return;
  // Proofs of possession are not checked over introspection: a bound token is never accepted unchecked.
  if (typeof cnf === 'object' && cnf !== null && 'x5t#S256' in cnf) {
    refuse('token_certificate_bound', 'The token is bound to a client certificate');
  }
  refuse('token_dpop_bound', 'The token is bound to a key');
}

/**
 * Applies to an introspection answer the checks `jwtBearer` applies to a JWT's claims, from the same
 * modules (auth/claims): `active`, `exp`, `nbf`, `iss` (when present), `aud` and `client_id` (or
 * `azp`) when configured, the token's kind (an ID, refresh, offline or logout token by any marker a
 * JWT would carry, `token_type` other than Bearer) and no `cnf` binding; then reads the principal
 * (`sub`, the `scope` string) as from a JWT.
 *
 * @param answer - the endpoint's JSON object
 * @param checks - the accepted issuer, audiences and clients
 * @param now - the clock, in epoch milliseconds
 * @returns the principal and the time window it may be served from the cache
 * @throws InvalidTokenError 401: `token_inactive`, `token_expired`, `token_not_yet_valid`,
 *   `issuer_mismatch`, `audience_mismatch`, `client_mismatch`, `claim_missing` (no client named),
 *   `token_type_mismatch`, `token_dpop_bound`, `token_certificate_bound`, `claim_invalid`;
 *   ServiceUnavailableError 503 when `active` is not a boolean (not an RFC 7662 answer)
 * @example
 * ```ts
 * const { principal } = checkAnswer({ active: true, sub: 'alice', aud: 'plants' }, checks, Date.now());
 * ```
 */
export function checkAnswer(
  answer: IntrospectionAnswer,
  checks: AnswerChecks,
  now: number,
): AcceptedAnswer {
  const { active } = answer;
  if (typeof active !== 'boolean') {
    throw introspectionUnavailable('The introspection answer has no boolean active member');
  }
  if (!active) refuse('token_inactive', 'The token is not active');
  const window = tokenWindow(answer);
  assertWithinWindow(window, now);
  if (answer['iss'] !== undefined && answer['iss'] !== checks.issuer) {
    refuse('issuer_mismatch', 'The token is of another issuer');
  }
  assertAudience(answer, checks.audiences);
  assertClient(answer, checks.clients);
  // Before the kind: a DPoP-bound token's `token_type` is `DPoP`, and its binding is the reason.
  checkBinding(answer);
  assertAccessToken(answer, false);
  checkTokenType(answer);
  return { principal: principalOf(answer, SCOPE_CLAIMS), window };
}
