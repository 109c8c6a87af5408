import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createPlantService, jwtBearer, memoryStore, type MemoryStore } from '@plantstore/core';
import { createTokenIssuer } from '@plantstore/core/testing';
import { createApp } from './app';
import type { HostDocument } from './host-document';

/** The example app running on 127.0.0.1, with what a test or a visitor needs to use it. */
export interface StartedApp {
  /** Its origin, e.g. `http://127.0.0.1:3000`; the page is at `${url}/docs`. */
  readonly url: string;
  /** Where the route keeps the plants, to check what a request stored. */
  readonly store: MemoryStore;
  /** A token the route accepts, for `subject`, valid for an hour. */
  readonly token: (subject: string) => Promise<string>;
  /** Stops the app and its identity provider. */
  readonly close: () => Promise<void>;
}

/**
 * Starts the example for development, tests and the screenshot: plants in memory, and a local
 * identity provider on 127.0.0.1 (a real JWKS) that mints tokens. In production, point
 * `jwtBearer` at your provider and give the route your store.
 *
 * @param port - where to listen on 127.0.0.1; 0 (the default) takes a free port
 * @param ownDocument - the app's own document, if not the default one
 * @returns the running app
 * @example
 * ```ts
 * const app = await startApp();
 * console.log(`${app.url}/docs`, await app.token('developer'));
 * await app.close();
 * ```
 */
export async function startApp(port = 0, ownDocument?: HostDocument): Promise<StartedApp> {
  const idp = await createTokenIssuer({ algorithm: 'ES256' });
  const store = memoryStore();
  const { jwksUri, issuer, audience } = idp;
  const plants = createPlantService({ store, auth: jwtBearer({ jwksUri, issuer, audience }) });
  await plants.ready();
  const server = createApp(plants, ownDocument).listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    store,
    token: (subject) => idp.sign({ sub: subject }, { expiresIn: '1 h' }),
    close: async () => {
      const closed = once(server, 'close');
      server.close();
      // Keep-alive sockets (the browser's) would hold `close` back until they time out.
      server.closeAllConnections();
      await Promise.all([closed, plants.close(), idp.close()]);
    },
  };
}
