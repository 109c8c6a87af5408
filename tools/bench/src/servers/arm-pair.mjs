// Both arms of the `tenants` and `events` benches in one process: one store (BENCH_STORE=pg, a fresh
// table, or redis, a fresh prefix) behind two services, the option off and on (BENCH_OPTION=tenant:
// the `tenant` option reading `sub`; events: `events: true`, no relay runs, the write's cost alone),
// chosen by the request's `x-bench-arm` header. One process keeps the arms on the same JIT, heap and
// CPU: two processes differ by more than the few per cent the bench looks for.
import { createServer } from 'node:http';
import process from 'node:process';
import { createNodeHandler, createPlantService } from '@plantstore/core';
import { postgresStore } from '@plantstore/postgres';
import { redisStore } from '@plantstore/redis';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { openPool } from './shared/databases.mjs';
import { openRedis } from './shared/redis.mjs';
import { serve } from './shared/serve.mjs';

async function open() {
  if (process.env.BENCH_STORE === 'redis') {
    const redis = await openRedis();
    return { store: redisStore({ client: redis.client, prefix: redis.prefix }), database: redis };
  }
  const database = openPool();
  const store = postgresStore({ client: database.client, table: database.table });
  await store.ensureSchema();
  return { store, database };
}

const { store, database } = await open();
const off = createPlantService({ store, auth: benchAuth() });
const ON = { tenant: { tenant: 'sub' }, events: { events: true } }[process.env.BENCH_OPTION ?? ''];
if (ON === undefined) throw new TypeError('BENCH_OPTION must be tenant or events');
const on = createPlantService({ store, auth: benchAuth(), ...ON });
const handlers = { off: createNodeHandler(off), on: createNodeHandler(on) };
serve(
  createServer((request, response) =>
    (request.headers['x-bench-arm'] === 'on' ? handlers.on : handlers.off)(request, response),
  ),
  async () => {
    await Promise.all([off.close(), on.close()]);
    await database.close();
  },
);
