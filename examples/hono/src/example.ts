import { createPlantService, jwtBearer } from '@plantstore/core';
import type { Hono } from 'hono';
import { createApp } from './app';
import { identityProvider } from './identity';
import { createStore } from './store';

/** The example's app, built from its environment, and how to let go of what it holds. */
export interface Example {
  readonly app: Hono;
  /** A development token to try the route with, when no identity provider was configured. */
  readonly devToken: string | undefined;
  close(): Promise<void>;
}

/**
 * Builds the app as both servers run it: PGlite in `PLANTSTORE_DATA`, tokens from
 * `PLANTSTORE_JWKS_URI` (or a development issuer), the route's key set fetched before it listens.
 *
 * @param env - the environment
 * @returns the app, ready to serve
 */
export async function createExample(
  env: Readonly<Record<string, string | undefined>>,
): Promise<Example> {
  const [idp, { store, close: closeStore }] = await Promise.all([
    identityProvider(env),
    createStore(env['PLANTSTORE_DATA'] ?? '.data/plants'),
  ]);
  const plants = createPlantService({
    basePath: '/api',
    store,
    auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
  });
  await plants.ready(); // fetches the key set: fail fast at start-up
  return {
    app: createApp(plants),
    devToken: idp.devToken,
    close: async () => void (await Promise.all([plants.close().then(closeStore), idp.close()])),
  };
}

/**
 * What a server prints once it listens: its address, and a curl command with a development token.
 *
 * @param runtime - the runtime's name and version
 * @param port - the port it listens on
 * @param devToken - the development token, if any
 */
export function printStarted(runtime: string, port: number, devToken: string | undefined): void {
  const url = `http://127.0.0.1:${port}/api/plants`;
  console.log(`Plantstore in a Hono app on ${runtime}: ${url}`);
  if (devToken === undefined) return;
  console.log(`curl -i -X POST ${url} \\
  -H 'authorization: Bearer ${devToken}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);
}
