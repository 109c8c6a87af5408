import type { JWTPayload } from 'jose';
import { InvalidTokenError } from '../../errors/bearer-errors';

/**
 * The key, set only by a provider preset, that accepts ID tokens as bearer tokens: Firebase's ID
 * tokens are its bearer tokens by design. A symbol, not a named option, so that no configuration
 * written by hand (or parsed from a file) turns the refusal of ID tokens off.
 */
export const ID_TOKENS_ACCEPTED: unique symbol = Symbol.for(
  'plantstore.jwtBearer.idTokensAccepted',
);

// Claims only OpenID Connect ID tokens carry (OIDC Core §2, §3.1.3.6, §3.3.2.11; FAPI's s_hash): an
// access token has no use for a login's nonce or for hashes binding it to a code or state.
const ID_TOKEN_CLAIMS = ['nonce', 'at_hash', 'c_hash', 's_hash'] as const;

/**
 * Whether a verified payload is an ID token rather than an access token. A provider's own marker
 * decides first: Keycloak's payload `typ` (`ID` or `Bearer`) and Cognito's `token_use` (`id` or
 * `access`). Without a marker, a claim only ID tokens carry decides; an access-token marker wins over
 * such a claim, since Keycloak before 24 copied the login's `nonce` into its access tokens.
 *
 * @param payload - the token's claims (verified, or read from a claim error of the verified token)
 * @returns true for an ID token
 * @example
 * ```ts
 * isIdToken({ sub: 'alice', nonce: 'n-0S6_WzA2Mj' }); // true
 * isIdToken({ sub: 'alice', typ: 'Bearer', nonce: 'n-0S6_WzA2Mj' }); // false
 * ```
 */
export function isIdToken(payload: JWTPayload): boolean {
  const { typ, token_use: tokenUse } = payload;
  if (typ === 'ID' || tokenUse === 'id') return true;
  if (typ === 'Bearer' || tokenUse === 'access') return false;
  return ID_TOKEN_CLAIMS.some((claim) => payload[claim] !== undefined);
}

/**
 * Refuses an ID token presented as a bearer token (RFC 9068 §1; OIDC Core §2: an ID token is for
 * the client, never for a resource server): 401 `token_type_mismatch`.
 *
 * @param payload - the verified claims
 * @throws {@link InvalidTokenError} `token_type_mismatch`
 * @example
 * ```ts
 * assertNotIdToken({ sub: 'alice', token_use: 'access' }); // passes
 * ```
 */
export function assertNotIdToken(payload: JWTPayload): void {
  if (isIdToken(payload)) {
    throw new InvalidTokenError(
      'token_type_mismatch',
      'The token is an ID token, not an access token',
    );
  }
}
