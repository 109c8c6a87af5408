import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { createOpenApiDocument } from '@plantstore/core/openapi';
import type { MemoryStore } from '@plantstore/core';
import { createTokenIssuer } from '@plantstore/core/testing';
import express from 'express';
import { createApp } from '../../../examples/express/src/app';

/** The Express example app, running on a free port with a memory store and a local JWKS. */
export interface RunningExample {
  /** `http://127.0.0.1:<port>`: the route is `POST {origin}/api/plants`. */
  readonly origin: string;
  /** What the route stored, to check ids to the last digit. */
  readonly store: MemoryStore;
  /** A valid bearer token for the route. */
  readonly token: string;
  /** Stops the app and the token issuer. */
  close(): Promise<void>;
}

/**
 * Starts `examples/express` as a host would run it, plus the one route docs/guides/openapi.md tells a host
 * to add: `GET /openapi.json`, the document of the route as mounted at `/api`.
 *
 * @returns the running app
 */
export async function startExample(): Promise<RunningExample> {
  const idp = await createTokenIssuer();
  const store = memoryStore();
  const plants = createPlantService({
    store,
    auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
  });

  const host = express();
  // As docs/guides/openapi.md shows it: built once, served as JSON, next to the mounted route.
  const openapi = createOpenApiDocument({
    serverUrl: 'https://plants.example.com',
    basePath: '/api',
  });
  host.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  host.use(createApp({ plants, log: () => undefined }));

  const server = host.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = await idp.sign({ sub: 'client-developer' });
  return {
    origin,
    store,
    token,
    async close() {
      server.close();
      server.closeAllConnections();
      await plants.close();
      await idp.close();
    },
  };
}
