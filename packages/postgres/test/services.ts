import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createPlantService, type PlantStore } from '@plantstore/core';

/** A table name no other test file or run uses. */
export function uniqueTable(purpose: string): string {
  return `plantstore_${purpose}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** A port on 127.0.0.1 where nothing listens: a server that is gone. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** tsx, to run a child process from source; the examples have it, and so may this package one day. */
export function tsxLoader(): string {
  const from = [
    import.meta.url,
    new URL('../../../examples/custom-storage/package.json', import.meta.url).href,
  ];
  for (const base of from) {
    try {
      return pathToFileURL(createRequire(base).resolve('tsx')).href;
    } catch {
      // try the next place
    }
  }
  throw new Error('tsx is not installed where this test can find it');
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it is true, failing after `timeoutMs`. */
export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/**
 * A plant service on `store` with a short store time-out, recording the ids `onCreated` was told
 * about and the codes `onRejected` was, with a helper that posts `{ id, name: 'plant <id>' }` with a
 * valid token and resolves to the status.
 */
export function recordingService(store: PlantStore, storeTimeout: number) {
  const created: bigint[] = [];
  const rejected: string[] = [];
  const service = createPlantService({
    store,
    storeTimeout,
    auth: {
      verify: (token) =>
        Promise.resolve(
          token === 'good' ? { subject: 'gardener', scopes: [], claims: {} } : undefined,
        ),
    },
    onCreated: (plant) => {
      created.push(plant.id);
    },
    onRejected: (error) => {
      rejected.push(error.code);
    },
  });
  const post = async (id: number): Promise<number> => {
    const response = await service.fetch(
      new Request('http://host/plants', {
        method: 'POST',
        headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
        body: JSON.stringify({ id, name: `plant ${id}` }),
      }),
    );
    await response.body?.cancel();
    return response.status;
  };
  return { created, rejected, post };
}
