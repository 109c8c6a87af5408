import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { createApp } from './app';
import { identityProvider } from './identity';

/** The function's fetch handler, built from its environment, and how to let go of what it holds. */
export interface Example {
  readonly fetch: (request: Request) => Promise<Response>;
  /** A development token to try the route with, when no identity provider was configured. */
  readonly devToken: string | undefined;
  close(): Promise<void>;
}

/**
 * Builds the function's routes: tokens from `PLANTSTORE_JWKS_URI` (or a development issuer), the
 * route's key set fetched at the cold start. The memory store keeps plants for one instance's life
 * only: a deployed function uses a shared store, such as `dynamoDbStore` of `@plantstore/dynamodb`.
 *
 * @param env - the environment
 * @returns the fetch handler, ready
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
  await plants.ready(); // fetches the key set during the cold start, not the first request
  return {
    fetch: createApp(plants),
    devToken: idp.devToken,
    close: async () => void (await Promise.all([plants.close(), idp.close()])),
  };
}
