import { InvalidTokenError } from '../errors/bearer-errors';

/** The largest token accepted, in characters (16 KiB, Node's default limit for all headers): an Entra ID
 * token of a user in 200 groups, its documented limit before the overage claim, is about 11.7 KB. */
export const MAX_TOKEN_LENGTH = 16_384;

const MALFORMED = 'The token is not a compact JWS of three base64url segments';
// Three non-empty segments of the base64url alphabet. No class holds the dot, so the match is
// linear without backtracking; V8 compiles it to native code, four times the speed of a loop over
// char codes on a 700-character proof.
const THREE_SEGMENTS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The 6-bit value of a base64url character, or -1 for anything else (padding, whitespace, `+`, `/`). */
function base64urlValue(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code - 0x41; // A-Z
  if (code >= 0x61 && code <= 0x7a) return code - 0x61 + 26; // a-z
  if (code >= 0x30 && code <= 0x39) return code - 0x30 + 52; // 0-9
  if (code === 0x2d) return 62; // -
  if (code === 0x5f) return 63; // _
  return -1;
}

/**
 * Whether a segment of `length` characters ending in a character worth `last` is canonical
 * unpadded base64url: 4n+1 characters cannot encode whole bytes, and the bits left over after the
 * last whole byte must be zero, or two different strings would decode to the same bytes.
 */
function isCanonicalSegment(length: number, last: number): boolean {
  switch (length % 4) {
    case 0:
      return length > 0;
    case 2:
      return (last & 0x0f) === 0;
    case 3:
      return (last & 0x03) === 0;
    default:
      return false;
  }
}

/**
 * What is wrong with a compact JWS, if anything: more than {@link MAX_TOKEN_LENGTH} characters, or
 * not exactly three non-empty segments of canonical, unpadded base64url. jose decodes with `atob` on
 * Node 20, which tolerates padding, whitespace and non-canonical trailing bits, so the same
 * signature could be sent in several spellings.
 *
 * The alphabet and the dots are matched by one linear regular expression; then only the last
 * character of each segment is read, for its leftover bits.
 *
 * @param jws - a bearer token or a DPoP proof, as sent
 * @returns `'too_large'`, `'malformed'` (also an empty signature, as an `alg: none` token has), or
 *   `undefined` when it is well-formed
 * @example
 * ```ts
 * if (compactJwsDefect(proof) !== undefined) throw new InvalidDpopProofError('dpop_proof_malformed', …);
 * ```
 */
export function compactJwsDefect(jws: string): 'too_large' | 'malformed' | undefined {
  if (jws.length > MAX_TOKEN_LENGTH) return 'too_large';
  if (!THREE_SEGMENTS.test(jws)) return 'malformed';
  const first = jws.indexOf('.');
  const second = jws.indexOf('.', first + 1);
  const canonical =
    isCanonicalSegment(first, lastValue(jws, first)) &&
    isCanonicalSegment(second - first - 1, lastValue(jws, second)) &&
    isCanonicalSegment(jws.length - second - 1, lastValue(jws, jws.length));
  return canonical ? undefined : 'malformed';
}

/** The 6-bit value of the character before `end`, the last of a segment. */
function lastValue(jws: string, end: number): number {
  return base64urlValue(jws.charCodeAt(end - 1));
}

/**
 * Checks that a bearer token is a well-formed compact JWS before jose sees it (see
 * {@link compactJwsDefect}).
 *
 * @param token - the bearer token as sent
 * @throws {@link InvalidTokenError} `token_too_large` past 16 KiB, `token_malformed` for any other defect
 * @example
 * ```ts
 * assertCompactJws(token); // throws a 401 InvalidTokenError on a malformed token
 * const { payload } = await jwtVerify(token, key, options);
 * ```
 */
export function assertCompactJws(token: string): void {
  const defect = compactJwsDefect(token);
  if (defect === 'too_large') {
    throw new InvalidTokenError('token_too_large', 'The token is larger than 16 KiB');
  }
  if (defect === 'malformed') throw new InvalidTokenError('token_malformed', MALFORMED);
}
