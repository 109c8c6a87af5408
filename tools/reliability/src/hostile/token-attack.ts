import type { CaseHeaders, Expectation } from './case';
import type { TokenKit } from './token-kit';

/** The groups of token attacks, after RFC 8725 and RFC 6750. */
export const TOKEN_GROUPS = [
  'alg none',
  'algorithm confusion',
  'kid tricks',
  'key headers (jku, x5u, jwk, x5c)',
  'crit',
  'claims and time',
  'malformed encodings',
  'signatures',
  'payload under a trusted signature',
  'oversized tokens',
  'repeated and misplaced credentials',
  'scheme variants',
] as const;

/** One group of {@link TOKEN_GROUPS}. */
export type TokenGroup = (typeof TOKEN_GROUPS)[number];

/** The request an attack sends: its headers (no `Authorization` unless given) and optionally a path or body. */
export interface TokenRequest {
  readonly headers: CaseHeaders;
  /** Path and query. Default `/plants`. */
  readonly path?: string;
  /** The body. Default a valid plant with the attack's own id. */
  readonly body?: string;
}

/**
 * One token attack. `target` says which host it runs against: the one verifying against the
 * issuer's JWKS (default), or the one configured with a `publicKey` whose private key the test
 * holds (to reach checks that come after a good signature).
 */
export interface TokenAttack {
  readonly group: TokenGroup;
  readonly name: string;
  readonly target?: 'jwks' | 'public key';
  readonly build: (kit: TokenKit) => TokenRequest | Promise<TokenRequest>;
  /** `accepted`: 200 and the plant stored; otherwise the refusal. */
  readonly expect: 'accepted' | Expectation;
}

/**
 * The request of an attack that only sets the bearer token.
 *
 * @param token - the token, sent as `Authorization: Bearer <token>`
 * @returns the request
 */
export function bearer(token: string): TokenRequest {
  return { headers: { authorization: `Bearer ${token}` } };
}

/**
 * Puts attacks into a group.
 *
 * @param group - the group
 * @param attacks - the attacks without their group
 * @returns the attacks
 */
export function inGroup(
  group: TokenGroup,
  attacks: readonly Omit<TokenAttack, 'group'>[],
): TokenAttack[] {
  return attacks.map((attack) => ({ ...attack, group }));
}

/**
 * Builds one attack.
 *
 * @param group - its group
 * @param name - its sentence
 * @param build - the request it sends
 * @param expect - `accepted` or the refusal
 * @returns the attack
 */
export function tokenAttack(
  group: TokenGroup,
  name: string,
  build: TokenAttack['build'],
  expect: TokenAttack['expect'],
): TokenAttack {
  return { group, name, build, expect };
}
