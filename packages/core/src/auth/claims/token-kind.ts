import { InvalidTokenError } from '../../errors/bearer-errors';

type Claims = Readonly<Record<string, unknown>>;

// Claims only OpenID Connect ID tokens carry (OIDC Core §2, §3.1.3.6, §3.3.2.11; FAPI's s_hash): an
// access token has no use for a login's nonce or for hashes binding it to a code or state.
const ID_TOKEN_CLAIMS = ['nonce', 'at_hash', 'c_hash', 's_hash'] as const;
// Keycloak's payload `typ` of its access tokens (TokenUtil.TOKEN_TYPE_BEARER and _DPOP); its other
// kinds (`ID`, `Refresh`, `Offline`, `Logout`, …) are never bearer credentials. Keycloak before 22
// answered introspection with this claim and no `token_type` (keycloak#21919).
const ACCESS_TYPES = new Set(['Bearer', 'DPoP']);
// Cognito's `token_use` (`access`, `id`) and Ory Hydra's introspection `token_use` (`access_token`,
// `refresh_token`).
const ACCESS_USES = new Set(['access', 'access_token']);

/** What a token's own claims say it is, when they say it. */
export type TokenKind = 'access' | 'id' | 'other' | undefined;

/**
 * What a token says it is. A provider's own marker decides first: Keycloak's payload `typ` and
 * Cognito's or Hydra's `token_use`. Without one, a claim only ID tokens carry makes it an ID token;
 * an access-token marker wins over such a claim, since Keycloak before 24 copied the login's `nonce`
 * into its access tokens.
 *
 * @param claims - a token's claims, or an introspection answer
 * @returns `access`, `id`, `other` (a refresh, offline or logout token), or undefined when unsaid
 * @example
 * ```ts
 * tokenKind({ sub: 'alice', nonce: 'n-0S6_WzA2Mj' }); // 'id'
 * tokenKind({ sub: 'alice', typ: 'Refresh' }); // 'other'
 * ```
 */
export function tokenKind(claims: Claims): TokenKind {
  const { typ, token_use: use } = claims;
  if (typ === 'ID' || use === 'id') return 'id';
  const markers = [typ, use].filter((marker) => marker !== undefined);
  if (markers.length > 0) {
    return markers.every(
      (marker) => ACCESS_TYPES.has(marker as string) || ACCESS_USES.has(marker as string),
    )
      ? 'access'
      : 'other';
  }
  return ID_TOKEN_CLAIMS.some((claim) => claims[claim] !== undefined) ? 'id' : undefined;
}

/**
 * Refuses what is not an access token, in every configuration and on both paths (a JWT's claims,
 * an introspection answer): an ID token (RFC 9068 §1; OIDC Core §2: it is for the client, never for
 * a resource server) unless a provider preset accepts them by design (Firebase), and a refresh,
 * offline or logout token always.
 *
 * @param claims - the verified claims, or an active introspection answer
 * @param idTokens - true only where a preset accepts ID tokens as its bearer tokens
 * @throws {@link InvalidTokenError} `token_type_mismatch`
 * @example
 * ```ts
 * assertAccessToken({ sub: 'alice', token_use: 'access' }, false); // passes
 * ```
 */
export function assertAccessToken(claims: Claims, idTokens: boolean): void {
  const kind = tokenKind(claims);
  if (kind === 'id' && !idTokens) {
    throw new InvalidTokenError(
      'token_type_mismatch',
      'The token is an ID token, not an access token',
    );
  }
  if (kind === 'other') {
    throw new InvalidTokenError('token_type_mismatch', 'The token is not an access token');
  }
}
