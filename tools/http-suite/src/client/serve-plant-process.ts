import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createNodeHandler,
  createPlantService,
  type PlantStore,
  type Principal,
} from '@plantstore/core';

const loadClient: Principal = { subject: 'load', scopes: [], claims: {} };

/**
 * The body of a store package's server fixture for {@link startServerProcess}: the core's node:http
 * handler on `store`, accepting the bearer `token` only, on a port of 127.0.0.1. It prints
 * `port <n>` once it listens; when stdin closes it prints `created <n>` (the plants created through
 * it, replays not counted), closes the service, runs `release` and exits.
 *
 * @param store - the store on the database under test
 * @param token - the one bearer token accepted
 * @param release - ends what the fixture opened (a Pool, a client)
 */
export function servePlantProcess(store: PlantStore, token: string, release: () => unknown): void {
  const counts = { created: 0 };
  const service = createPlantService({
    store,
    auth: { verify: (given) => Promise.resolve(given === token ? loadClient : undefined) },
    // Exactly-once creation is the subject here, not time-outs: on a busy shared machine 10,000
    // requests may queue past the default 5 s.
    storeTimeout: 120_000,
    onCreated: () => void (counts.created += 1),
    onError: (error) => console.error(`5xx: ${error.code} ${String(error.cause)}`),
  });
  const server = createServer(createNodeHandler(service));
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1', () => {
    console.log(`port ${(server.address() as AddressInfo).port}`);
  });
  process.stdin.resume();
  process.stdin.once('end', () => {
    console.log(`created ${counts.created}`);
    server.closeAllConnections();
    server.close();
    void (async () => {
      await service.close();
      await release();
      process.exit(0);
    })();
  });
}
