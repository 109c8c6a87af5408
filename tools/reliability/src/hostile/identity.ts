import { type Authenticator, jwtBearer } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';

/** The scope the hostile hosts require. */
export const SCOPE = 'plants:write';

/** `maxTokenAge` of the hostile hosts, in seconds. */
export const MAX_TOKEN_AGE = 3600;

/** The local identity provider of a hostile run, and the bearer check every host uses. */
export interface Identity {
  readonly issuer: TokenIssuer;
  /** The services' clock, frozen at a whole second so that time edges are exact. */
  readonly nowSeconds: number;
  /**
   * A fresh `jwtBearer` against the issuer's JWKS (or, given one, a `publicKey` instead): issuer,
   * audience, `plants:write` required, `exp` required, `maxTokenAge` one hour, 5 s clock tolerance
   * (the default), the frozen clock.
   */
  auth(publicKey?: string): Authenticator;
  /** Signs a token with the issuer's current key; `claims` override the valid defaults. */
  sign(
    claims?: Readonly<Record<string, unknown>>,
    header?: Readonly<Record<string, unknown>>,
  ): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts a token issuer on 127.0.0.1 and freezes the services' clock at the current second.
 *
 * @returns the identity; `close()` it after the run
 */
export async function startIdentity(): Promise<Identity> {
  const issuer = await createTokenIssuer();
  const nowSeconds = Math.floor(Date.now() / 1000);
  return {
    issuer,
    nowSeconds,
    auth: (publicKey) =>
      jwtBearer({
        ...(publicKey === undefined ? { jwksUri: issuer.jwksUri } : { publicKey }),
        issuer: issuer.issuer,
        audience: issuer.audience,
        requiredScopes: [SCOPE],
        requiredClaims: ['exp'],
        maxTokenAge: MAX_TOKEN_AGE,
        now: () => nowSeconds * 1000,
      }),
    sign: (claims = {}, header) =>
      issuer.sign(
        { scope: SCOPE, iat: nowSeconds, exp: nowSeconds + 600, ...claims },
        header === undefined ? {} : { header },
      ),
    close: () => issuer.close(),
  };
}
