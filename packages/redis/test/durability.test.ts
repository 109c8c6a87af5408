import { storeRecord } from '@plantstore/core/testing';
import { createPlantService, isPlantServiceError, type PlantLogger } from '@plantstore/core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { redisStore } from '../src/index';
import { redisServerFor } from './cluster';
import { SINGLE_CLIENTS, uniquePrefix, type OpenClient } from './services';
import { ownRedis, type OwnRedis } from './standalone';

const binary = redisServerFor('the Redis durability tests');

/** A logger that keeps its warnings. */
function keptLogger(): PlantLogger & { readonly warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => void warnings.push(message), error: () => undefined };
}

// Each a server of the test's own, on a free port, in a folder of its own (the machine's 6379 is
// shared and its settings are not ours to change).
const SERVERS = {
  snapshots: ['--save', '3600 1 300 100'],
  always: ['--appendonly', 'yes', '--appendfsync', 'always'],
  everysec: ['--appendonly', 'yes', '--appendfsync', 'everysec'],
  // As managed services do: CONFIG renamed away, INFO left.
  managed: ['--save', '3600 1', '--rename-command', 'CONFIG', ''],
  managedAof: ['--appendonly', 'yes', '--rename-command', 'CONFIG', ''],
} as const;

describe.skipIf(binary === undefined)('what a 200 survives on Redis, as ready() reports it', () => {
  const servers = new Map<keyof typeof SERVERS, OwnRedis>();
  const opened: OpenClient[] = [];
  beforeAll(async () => {
    for (const [name, settings] of Object.entries(SERVERS)) {
      const server = await ownRedis(binary ?? '', settings);
      await server.start();
      servers.set(name as keyof typeof SERVERS, server);
    }
  }, 30_000);
  afterAll(async () => {
    for (const client of opened) await client.close();
    for (const server of servers.values()) await server.stop();
  });
  const open = async (server: keyof typeof SERVERS, client = 'node-redis 6') => {
    const connect = SINGLE_CLIENTS[client] as (url: string) => Promise<OpenClient>;
    const one = await connect(servers.get(server)?.url ?? '');
    opened.push(one);
    return one.client;
  };

  for (const client of Object.keys(SINGLE_CLIENTS)) {
    it(`warns once through the logger that a crash loses what the last snapshot missed, on a server with RDB snapshots only (${client})`, async () => {
      const store = redisStore({ client: await open('snapshots', client) });
      const logger = keptLogger();
      await store.ready({ logger });
      await store.ready({ logger });
      expect(logger.warnings).toEqual([
        'plantstore: redisStore: Redis answers a create before the plant is safe on its disk: ' +
          'its append-only file is off (RDB snapshots only, save "3600 1 300 100"), so a crash of ' +
          'the server loses every create acknowledged since the last snapshot (in a crash test, ' +
          '37% of them, and after the restart a different plant was answered 200 under 46 to 69 ' +
          'of those ids per run). Set appendonly yes and appendfsync always on the server, or ' +
          'waitAof: true on the store (Redis 7.2+), so that a 200 means the plant survives a ' +
          'crash of the server.',
      ]);
    });
  }

  it("says nothing with appendonly yes and appendfsync always, through the service's logger", async () => {
    const logger = keptLogger();
    const store = redisStore({ client: await open('always') });
    await createPlantService({
      store,
      auth: { verify: () => Promise.resolve(undefined) },
      logger,
    }).ready();
    expect(logger.warnings).toEqual([]);
  });

  it("warns through the service's logger that everysec loses the last second, and not with logger: false", async () => {
    const logger = keptLogger();
    const client = await open('everysec');
    const auth = { verify: () => Promise.resolve(undefined) };
    await createPlantService({ store: redisStore({ client }), auth, logger }).ready();
    await createPlantService({ store: redisStore({ client }), auth, logger: false }).ready();
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain(
      'it writes its append-only file with appendfsync everysec, so a crash of the server loses ' +
        'the last second or more of acknowledged creates.',
    );
  });

  it('reads INFO persistence where CONFIG is disabled, as on managed services', async () => {
    const logger = keptLogger();
    await redisStore({ client: await open('managed') }).ready({ logger });
    await redisStore({ client: await open('managedAof', 'ioredis 5') }).ready({ logger });
    expect(logger.warnings.map((warning) => /: (its [^,(:]+)/.exec(warning)?.[1])).toEqual([
      'its append-only file is off ',
      'its append-only file is on',
    ]);
    expect(logger.warnings[0]).toContain('(RDB snapshots at most)');
    expect(logger.warnings[1]).toContain(
      'its appendfsync cannot be read (CONFIG is disabled): unless it is always',
    );
  });

  it('warns through process.emitWarning when the host calls ready() itself', async () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    onTestFinished(() => emitted.mockRestore());
    await redisStore({ client: await open('snapshots', 'ioredis 5') }).ready();
    expect(emitted.mock.calls.map(([, options]) => options)).toEqual([
      { code: 'PLANTSTORE_REDIS_DURABILITY' },
    ]);
  });

  // Redis 7.0 here: WAITAOF came with 7.2, whose path is checked against Redis's documentation only.
  it('refuses waitAof on a server without WAITAOF: ready() and a create reject with a TypeError naming the fix', async () => {
    const client = await open('always');
    const store = redisStore({ client, waitAof: true, prefix: uniquePrefix('waitaof') });
    const refusal = await store.ready().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TypeError);
    expect(isPlantServiceError(refusal)).toBe(false);
    expect(String(refusal)).toMatch(
      /^TypeError: redisStore: option "waitAof" needs Redis 7\.2 or later, whose WAITAOF waits for the server’s own disk; this server answered "ERR unknown command 'WAITAOF'.*"\. Upgrade Redis, or leave waitAof out and set appendonly yes and appendfsync always on the server\.$/,
    );
    // Not a 503 to retry: the service answers it 500, with the TypeError as the cause.
    const context = {
      principal: { subject: 'gardener', scopes: [], claims: {} },
      signal: new AbortController().signal,
    };
    const failure = await store
      .insert(storeRecord({ id: 7n, name: 'fern' }), context)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect(String(failure)).toMatch(/^TypeError: redisStore: option "waitAof" needs Redis 7\.2/);
  });
});
