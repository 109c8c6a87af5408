import { createTokenIssuer } from '@plantstore/core/testing';

/**
 * Development only: without `PLANTSTORE_JWKS_URI`, starts a local issuer on 127.0.0.1 that serves a
 * JWKS, points the route at it through the environment (the route reads it on its first request),
 * and prints a curl command with a token. With your identity
 * provider's coordinates set, does nothing.
 *
 * @param env - the server's environment, written to
 * @example
 * ```ts
 * // src/hooks.server.ts
 * export const init: ServerInit = () => startDevIdentity(process.env);
 * ```
 */
export async function startDevIdentity(env: Record<string, string | undefined>): Promise<void> {
  if (env['PLANTSTORE_JWKS_URI'] || env['PLANTSTORE_BRIDGE_URL']) return;
  // ES256: its keys are made in a millisecond, where RSA's take a few hundred.
  const idp = await createTokenIssuer({
    audience: 'https://plants.example.com',
    algorithm: 'ES256',
  });
  env['PLANTSTORE_JWKS_URI'] = idp.jwksUri;
  env['PLANTSTORE_ISSUER'] = idp.issuer;
  env['PLANTSTORE_AUDIENCE'] = idp.audience;
  const token = await idp.sign({ sub: 'developer' }, { expiresIn: '1 h' });
  const url = `http://localhost:${env['PORT'] ?? 3000}/api/plants`;
  console.log(`Development issuer for ${url}:
curl -i -X POST ${url} \\
  -H 'authorization: Bearer ${token}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);
}
