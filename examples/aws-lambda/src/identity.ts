import { createTokenIssuer } from '@plantstore/core/testing';

/** Where tokens come from, and a token to try the route with when it is a development issuer. */
export interface IdentityProvider {
  readonly jwksUri: string;
  readonly issuer: string;
  readonly audience: string;
  /** A token minted by the development issuer; undefined with your own provider. */
  readonly devToken?: string;
  close(): Promise<void>;
}

/**
 * Your identity provider from `PLANTSTORE_JWKS_URI`, `PLANTSTORE_ISSUER` and `PLANTSTORE_AUDIENCE`.
 * Without them, development only: a local issuer on 127.0.0.1 that serves a JWKS and mints a token,
 * so the route can be tried with curl at once.
 *
 * @param env - the environment
 * @returns the provider's coordinates
 */
export async function identityProvider(
  env: Readonly<Record<string, string | undefined>>,
): Promise<IdentityProvider> {
  const jwksUri = env['PLANTSTORE_JWKS_URI'];
  if (jwksUri !== undefined && jwksUri !== '') {
    return {
      jwksUri,
      issuer: env['PLANTSTORE_ISSUER'] ?? '',
      audience: env['PLANTSTORE_AUDIENCE'] ?? '',
      close: () => Promise.resolve(),
    };
  }
  // ES256: its keys are made in a millisecond, where RSA's take a few hundred.
  const idp = await createTokenIssuer({
    audience: 'https://plants.example.com',
    algorithm: 'ES256',
  });
  return {
    jwksUri: idp.jwksUri,
    issuer: idp.issuer,
    audience: idp.audience,
    devToken: await idp.sign({ sub: 'developer' }, { expiresIn: '1 h' }),
    close: () => idp.close(),
  };
}
