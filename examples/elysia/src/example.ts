import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { createApp } from './app';
import { identityProvider } from './identity';

/** The example's app, built from its environment, and how to let go of what it holds. */
export interface Example {
  readonly app: ReturnType<typeof createApp>;
  /** A development token to try the route with, when no identity provider was configured. */
  readonly devToken: string | undefined;
  close(): Promise<void>;
}

/**
 * Builds the app: the memory store (plants last as long as the process), tokens from
 * `PLANTSTORE_JWKS_URI` (or a development issuer), the route's key set fetched before it listens.
 *
 * @param env - the environment
 * @returns the app, ready to listen
 */
export async function createExample(
  env: Readonly<Record<string, string | undefined>>,
): Promise<Example> {
  const idp = await identityProvider(env);
  const plants = createPlantService({
    basePath: '/api',
    store: memoryStore(),
    auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
  });
  await plants.ready(); // fetches the key set: fail fast at start-up
  return {
    app: createApp(plants),
    devToken: idp.devToken,
    close: async () => void (await Promise.all([plants.close(), idp.close()])),
  };
}

/**
 * What the server prints once it listens: its address, and a curl command with a development token.
 *
 * @param port - the port it listens on
 * @param devToken - the development token, if any
 */
export function printStarted(port: number, devToken: string | undefined): void {
  const url = `http://127.0.0.1:${port}/api/plants`;
  console.log(`Plantstore in an Elysia app on Bun ${Bun.version}: ${url}`);
  if (devToken === undefined) return;
  console.log(`curl -i -X POST ${url} \\
  -H 'authorization: Bearer ${devToken}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);
}
