#!/usr/bin/env node
// Installs Plantstore as a user will: packs every public package (`pnpm pack`), installs the
// tarballs with npm into scratch projects outside the workspace (no workspace links, no pnpm), once
// with Express 4 + Koa 2 + Fastify 4 and once with Express 5 + Koa 3 + Fastify 5, and in each:
//   - serve.mjs (ESM) and serve.cjs (CommonJS) mount the route in an Express app, a Koa app and a
//     Fastify app on port 0 and create a plant through each over HTTP with a real HS256 token;
//   - esm/ and cjs/ type-check a TypeScript consumer of the public types (`tsc --noEmit`,
//     module nodenext, strict, skipLibCheck false) with TypeScript installed from npm, and nest/
//     the same consumer as an existing NestJS app compiles it: `module: commonjs`, so node10
//     resolution, which ignores `exports` (every subpath's types must resolve without it).
// Builds nothing: run `pnpm build` first (CI has). Prints a summary; exits 1 on any failure.
//
//   pnpm check:installed               keep nothing
//   pnpm check:installed --keep        leave the scratch folder for a look (its path is printed)

import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PACKAGES, packAll, root, run, stepLog } from './packed.mjs';

const keep = process.argv.includes('--keep');

/** Installed beside the tarballs in every scenario: the database clients a user picks from. */
const COMMON = [
  ...['pg@8', '@types/pg@8', '@electric-sql/pglite@0.5', 'mysql2@3', 'redis@5', 'ioredis@5'],
  // The AWS SDK release tested here: later ones may require Node 22 (see @plantstore/dynamodb).
  '@aws-sdk/client-dynamodb@3.1169.0',
];

const SCENARIOS = [
  {
    name: 'express4-koa2-fastify4',
    title: 'Express 4 + Koa 2 + Fastify 4, TypeScript 5',
    install: [
      'express@4',
      'koa@2',
      'fastify@4',
      '@types/express@4',
      '@types/koa@2',
      'typescript@5',
    ],
    expect: { express: '4.', koa: '2.', fastify: '4.' },
  },
  {
    name: 'express5-koa3-fastify5',
    title: 'Express 5 + Koa 3 + Fastify 5, TypeScript 7',
    install: [
      'express@5',
      'koa@3',
      'fastify@5',
      '@types/express@5',
      '@types/koa@3',
      'typescript@7',
    ],
    expect: { express: '5.', koa: '3.', fastify: '5.' },
  },
];

// ---------------------------------------------------------------------------------------------
// What the scratch projects hold

const SECRET = 'a shared secret of at least 32 bytes, for HS256';
const EXACT_ID = '9007199254740993';

/** The body of serve.mjs and serve.cjs after their imports: the same code in both module systems. */
const SERVE_BODY = `
const secret = ${JSON.stringify(SECRET)};
const EXACT_ID = ${JSON.stringify(EXACT_ID)};

async function listening(server) {
  if (!server.listening) {
    await new Promise((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  }
  return 'http://127.0.0.1:' + server.address().port;
}

async function post(url, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = 'Bearer ' + token;
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

function check(what, actual, expected) {
  if (actual !== expected) {
    throw new Error(what + ': expected ' + JSON.stringify(expected) + ', got ' + JSON.stringify(actual));
  }
}

async function waitFor(read, what) {
  for (let i = 0; i < 100 && read() === undefined; i += 1) await new Promise((r) => setTimeout(r, 10));
  return read() ?? what;
}

async function createThrough(name, url, token) {
  const body = '{"id": ' + EXACT_ID + ', "name": "Monstera ' + name + '", "tag": "aroid"}';
  const created = await post(url, body, token);
  check(name + ' create status', created.status, 200);
  check(name + ' create body', created.text, '{"name":"Monstera ' + name + '","tag":"aroid"}');
  check(name + ' content-type', created.type, 'application/json; charset=utf-8');
  check(name + ' replay status', (await post(url, body, token)).status, 200);
  const anonymous = await post(url, body, undefined);
  check(name + ' no token status', anonymous.status, 401);
  check(name + ' no token body', JSON.parse(anonymous.text).error, 401);
}

async function main() {
  const token = await new SignJWT({ scope: 'plants:write' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('installed-user')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(secret));
  check('isPlantServiceError is a function', typeof isPlantServiceError, 'function');
  check('isPlantServiceError(new Error())', isPlantServiceError(new Error('x')), false);
  // Every entry of @plantstore/core loads from the tarball, through its exports map.
  check('auth0 from /providers', auth0({ domain: 'a.eu.auth0.com', audience: 'plants' }).issuer, 'https://a.eu.auth0.com/');
  check('openApiDocument from /openapi', openApiDocument.openapi, '3.1.0');
  check('checkKnownOptions from /adapter', typeof checkKnownOptions, 'function');
  // A store package words its option errors with the installed core's checks.
  check('postgresStore names a misspelt option', (() => { try { postgresStore({ client: {}, tabel: 'x' }); return 'accepted'; } catch (error) { return error.message; } })(), 'postgresStore: unknown option "tabel" (did you mean "table"?)');
  // @plantstore/cloudflare loads on Node too (its Worker runs in the repository's miniflare tests).
  check('d1Store is a function', typeof d1Store, 'function');
  check('schemaSql() creates the table', /CREATE TABLE IF NOT EXISTS plants/u.test(schemaSql()), true);
  check('ReplayDurableObject is a class', typeof ReplayDurableObject, 'function');
  // @plantstore/mysql loads beside mysql2, its peer, and checks its client at the factory call.
  check('mysqlStore on a mysql2 Pool', typeof mysqlStore({ client: createPool({}) }).insert, 'function');
  check('mysqlReplayStore is a function', typeof mysqlReplayStore, 'function');
  check('mysqlStore refuses a non-client', (() => { try { mysqlStore({ client: {} }); return 'accepted'; } catch (error) { return error.name; } })(), 'TypeError');
  // @plantstore/dynamodb loads beside @aws-sdk/client-dynamodb, its peer, and sends nothing when built.
  check('dynamoDbStore on a DynamoDBClient', typeof dynamoDbStore({ client: new DynamoDBClient({ region: 'local' }) }).insert, 'function');
  check('dynamoDbReplayStore is a function', typeof dynamoDbReplayStore, 'function');
  check('dynamoDbStore refuses a non-client', (() => { try { dynamoDbStore({ client: {} }); return 'accepted'; } catch (error) { return error.name; } })(), 'TypeError');
  // @plantstore/redis takes a client of either peer, unconnected here: the factories send nothing.
  check('redisStore on a node-redis client', typeof redisStore({ client: createClient() }).insert, 'function');
  check('redisReplayStore on an ioredis client', typeof redisReplayStore({ client: new Redis({ lazyConnect: true }) }).remember, 'function');
  check('redisStore refuses a non-client', (() => { try { redisStore({ client: {} }); return 'accepted'; } catch (error) { return error.name; } })(), 'TypeError');

  // Express: the route on PGlite through @plantstore/postgres, a logger reading res.locals.
  const db = new PGlite();
  const pgStore = postgresStore({ client: db });
  await pgStore.ensureSchema();
  const app = express();
  let expressSubject;
  app.use((req, res, next) => {
    res.on('finish', () => {
      expressSubject = res.locals.plantstore?.principal?.subject ?? '-';
    });
    next();
  });
  const router = plantRouter({ store: pgStore, auth: jwtBearer({ secret }) });
  app.use('/api', router);
  app.get('/api/health', (req, res) => void res.json({ ok: true }));
  const expressServer = app.listen(0, '127.0.0.1');

  // Koa: the route on the memory store, a middleware reading ctx.state after it.
  const koa = new Koa();
  let koaSubject;
  koa.use(async (ctx, next) => {
    await next();
    koaSubject = ctx.state.plantstore?.principal?.subject ?? '-';
  });
  const memory = memoryStore();
  const routes = plantRoutes({ prefix: '/api', store: memory, auth: jwtBearer({ secret }) });
  koa.use(routes);
  const koaServer = koa.listen(0, '127.0.0.1');

  // Fastify: the plugin at /api beside the app's own JSON route, a hook reading request.plantstore.
  const fastify = Fastify();
  let fastifySubject;
  fastify.addHook('onResponse', async (request) => {
    fastifySubject = request.plantstore?.principal?.subject ?? '-';
  });
  const fastifyMemory = memoryStore();
  const plugin = plantPlugin({ store: fastifyMemory, auth: jwtBearer({ secret }) });
  await fastify.register(plugin, { prefix: '/api' });
  fastify.post('/api/echo', async (request) => ({ echo: request.body }));
  await fastify.listen({ port: 0, host: '127.0.0.1' });

  try {
    const expressUrl = await listening(expressServer);
    const koaUrl = await listening(koaServer);

    await createThrough('Express', expressUrl + '/api/plants', token);
    const rows = (await db.query('SELECT id::text AS id, name FROM plants')).rows;
    check('Express stored id', rows.length === 1 ? rows[0].id : JSON.stringify(rows), EXACT_ID);
    expressSubject = undefined;
    await post(expressUrl + '/api/plants', '{"id": 1, "name": "Fern"}', token);
    check('Express res.locals.plantstore', await waitFor(() => expressSubject, 'unset'), 'installed-user');
    check('Express own route', (await fetch(expressUrl + '/api/health')).status, 200);

    await createThrough('Koa', koaUrl + '/api/plants', token);
    check('Koa stored id', memory.get(BigInt(EXACT_ID))?.id, BigInt(EXACT_ID));
    koaSubject = undefined;
    await post(koaUrl + '/api/plants', '{"id": 1, "name": "Fern"}', token);
    check('Koa ctx.state.plantstore', koaSubject, 'installed-user');
    check('Koa other path', (await fetch(koaUrl + '/api/other')).status, 404);

    const fastifyUrl = 'http://127.0.0.1:' + fastify.server.address().port;
    await createThrough('Fastify', fastifyUrl + '/api/plants', token);
    check('Fastify stored id', fastifyMemory.get(BigInt(EXACT_ID))?.id, BigInt(EXACT_ID));
    fastifySubject = undefined;
    await post(fastifyUrl + '/api/plants', '{"id": 1, "name": "Fern"}', token);
    check('Fastify request.plantstore', await waitFor(() => fastifySubject, 'unset'), 'installed-user');
    const echo = await post(fastifyUrl + '/api/echo', '{"a": 1}', undefined);
    check('Fastify own JSON route', echo.text, '{"echo":{"a":1}}');
  } finally {
    expressServer.close();
    koaServer.close();
    await fastify.close();
    await router.service.close();
    await routes.service.close();
    await db.close();
  }
  console.log(JSON.stringify({ express: 'ok', koa: 'ok', fastify: 'ok' }));
}
`;

const SERVE_MJS = `import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { SignJWT } from 'jose';
import { PGlite } from '@electric-sql/pglite';
import { isPlantServiceError, jwtBearer, memoryStore } from '@plantstore/core';
import { checkKnownOptions } from '@plantstore/core/adapter';
import { openApiDocument } from '@plantstore/core/openapi';
import { auth0 } from '@plantstore/core/providers';
import { plantRouter } from '@plantstore/express';
import { plantPlugin } from '@plantstore/fastify';
import { plantRoutes } from '@plantstore/koa';
import { postgresStore } from '@plantstore/postgres';
import { mysqlReplayStore, mysqlStore } from '@plantstore/mysql';
import { createPool } from 'mysql2';
import { dynamoDbReplayStore, dynamoDbStore } from '@plantstore/dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { redisReplayStore, redisStore } from '@plantstore/redis';
import { createClient } from 'redis';
import { Redis } from 'ioredis';
import { d1Store, ReplayDurableObject, schemaSql } from '@plantstore/cloudflare';
${SERVE_BODY}
await main();
`;

const SERVE_CJS = `'use strict';
const express = require('express');
const Fastify = require('fastify');
const Koa = require('koa');
const { SignJWT } = require('jose');
const { PGlite } = require('@electric-sql/pglite');
const { isPlantServiceError, jwtBearer, memoryStore } = require('@plantstore/core');
const { checkKnownOptions } = require('@plantstore/core/adapter');
const { openApiDocument } = require('@plantstore/core/openapi');
const { auth0 } = require('@plantstore/core/providers');
const { plantRouter } = require('@plantstore/express');
const { plantPlugin } = require('@plantstore/fastify');
const { plantRoutes } = require('@plantstore/koa');
const { postgresStore } = require('@plantstore/postgres');
const { mysqlReplayStore, mysqlStore } = require('@plantstore/mysql');
const { createPool } = require('mysql2');
const { dynamoDbReplayStore, dynamoDbStore } = require('@plantstore/dynamodb');
const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
const { redisReplayStore, redisStore } = require('@plantstore/redis');
const { createClient } = require('redis');
const { Redis } = require('ioredis');
const { d1Store, ReplayDurableObject, schemaSql } = require('@plantstore/cloudflare');
${SERVE_BODY}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** A TypeScript consumer of the public types; the same source is checked as ESM and as CommonJS. */
const CONSUMER_TS = `import { PGlite } from '@electric-sql/pglite';
import {
  createPlantService,
  isPlantServiceError,
  jwtBearer,
  memoryStore,
  ServiceUnavailableError,
  type InsertResult,
  type NewPlant,
  type PlantService,
  type PlantServiceOptions,
  type PlantStore,
  type PlantServiceErrorCode,
  type Principal,
  type StoreContext,
} from '@plantstore/core';
import { checkKnownOptions, type PlantRequest } from '@plantstore/core/adapter';
import { createOpenApiDocument, type OpenApiDocument } from '@plantstore/core/openapi';
import { auth0, type Auth0PresetOptions } from '@plantstore/core/providers';
import {
  createTokenIssuer,
  describeStoreConformance,
  type TestRegistrar,
  type TokenIssuer,
} from '@plantstore/core/testing';
import { plantRouter, type PlantLocals, type PlantRouter } from '@plantstore/express';
import {
  plantPlugin,
  type PlantPlugin,
  type PlantPluginOptions,
  type PlantRequestState,
} from '@plantstore/fastify';
import { plantRoutes, type PlantRoutes, type PlantRoutesOptions, type PlantState } from '@plantstore/koa';
import { postgresStore, type PostgresStore } from '@plantstore/postgres';
import {
  d1Store,
  durableObjectReplayStore,
  type D1DatabaseLike,
  type D1Store,
  type DurableObjectNamespaceLike,
} from '@plantstore/cloudflare';
import type { ReplayStore } from '@plantstore/core';
import express, { type ErrorRequestHandler, type NextFunction, type Request, type Response } from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import Koa from 'koa';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { mysqlStore, type MysqlStore } from '@plantstore/mysql';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoDbStore, type DynamoDbStore } from '@plantstore/dynamodb';
import { redisStore, type RedisStore } from '@plantstore/redis';
import { createClient, createCluster } from 'redis';
import { Cluster, Redis } from 'ioredis';

// A store of one's own, written against the public interface.
const plants = new Map<bigint, NewPlant>();
export const ownStore: PlantStore = {
  async insert(plant: NewPlant, context: StoreContext): Promise<InsertResult> {
    if (context.signal.aborted) throw new ServiceUnavailableError('store_timeout', 'Too slow.');
    const subject: string | undefined = context.principal?.subject;
    void subject;
    const existing = plants.get(plant.id);
    if (existing !== undefined) return { created: false, existing };
    plants.set(plant.id, plant);
    return { created: true };
  },
};

export const options: PlantServiceOptions = {
  store: ownStore,
  auth: jwtBearer({ secret: 'a shared secret of at least 32 bytes', audience: 'plants' }),
  bodyLimit: 8192,
  onCreated(plant: NewPlant, context) {
    const id: bigint = plant.id;
    const who: Principal | undefined = context.principal;
    void id;
    void who;
  },
  onRejected(error) {
    const code: PlantServiceErrorCode = error.code;
    const status: number = error.status;
    void code;
    void status;
  },
};

// Express: the router, its service, and what it leaves on res.locals.
export const app = express();
app.use((req: Request, res: Response, next: NextFunction) => {
  res.on('finish', () => {
    const locals: PlantLocals | undefined = res.locals.plantstore;
    const subject: string | undefined = res.locals.plantstore?.principal?.subject;
    console.log(req.method, locals === undefined, subject);
  });
  next();
});
export const router: PlantRouter = plantRouter(options);
app.use('/api', router);
const onError: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (isPlantServiceError(error)) res.status(error.status).json({ error: error.status, message: error.message });
  else next(error);
};
app.use(onError);

// Koa: the middleware, the router handler, and what it leaves on ctx.state.
export const koa = new Koa();
koa.use(async (ctx, next) => {
  await next();
  const state: PlantState | undefined = ctx.state.plantstore;
  const subject: string | undefined = ctx.state.plantstore?.principal?.subject;
  console.log(state === undefined, subject);
});
export const koaOptions: PlantRoutesOptions = { store: ownStore, auth: options.auth, prefix: '/api' };
export const routes: PlantRoutes = plantRoutes(koaOptions);
koa.use(routes);
koa.use(routes.handler);

// Fastify: the plugin, its service, and what it leaves on the request.
export const fastify: FastifyInstance = Fastify();
fastify.addHook('onResponse', async (request, reply) => {
  const state: PlantRequestState | undefined = request.plantstore;
  const subject: string | undefined = request.plantstore?.principal?.subject;
  console.log(state === undefined, subject, reply.statusCode);
});
export const fastifyOptions: PlantPluginOptions = { store: ownStore, auth: options.auth };
export const plugin: PlantPlugin = plantPlugin(fastifyOptions);
void fastify.register(plugin, { prefix: '/api' });

// One service shared by all three, and the OpenAPI document.
export const service: PlantService = createPlantService({ store: memoryStore(), auth: jwtBearer({ secret: 'x'.repeat(32) }) });
app.use('/v2', plantRouter(service));
koa.use(plantRoutes(service));
void fastify.register(plantPlugin(service), { prefix: '/v2' });
export const document: OpenApiDocument = createOpenApiDocument({ serverUrl: 'https://plants.example.com', basePath: '/api' });
// The other entries' types, as an adapter or an app with a preset names them.
const presetOptions: Auth0PresetOptions = { domain: 'a.eu.auth0.com', audience: 'plants' };
export const presetAuth = jwtBearer(auth0(presetOptions));
export const requestMethod = (request: PlantRequest): string => request.method;
export function checkedOptions(options: { client: unknown }): void {
  checkKnownOptions('myStore', options, new Set(['client']));
}

// PostgreSQL: a pg Pool, a connected pg Client, or PGlite.
export const pool = new pg.Pool({ connectionString: 'postgres://localhost/plants' });
export const onPool: PostgresStore = postgresStore({ client: pool });
export const onClient: PlantStore = postgresStore({ client: new pg.Client() });
export const onPglite: PostgresStore = postgresStore({ client: new PGlite(), table: 'app.plants' });

// MySQL and MariaDB: a mysql2 Pool, of the promise or the callback API.
export const onMysql: MysqlStore = mysqlStore({ client: mysql.createPool({ uri: 'mysql://localhost/plants' }) });

// DynamoDB: the AWS SDK v3 client, typed as the store takes it.
export const onDynamo: DynamoDbStore = dynamoDbStore({ client: new DynamoDBClient({}), table: 'plants' });
// Redis: node-redis clients and clusters, ioredis Redis and Cluster, all typed as the store takes them.
export const onRedis: RedisStore[] = [
  redisStore({ client: createClient(), waitReplicas: 1 }),
  redisStore({ client: createCluster({ rootNodes: [] }) }),
  redisStore({ client: new Redis({ lazyConnect: true }) }),
  redisStore({ client: new Cluster([], { lazyConnect: true }) }),
];

// Cloudflare: a D1 store and a Durable Object replay store, from the Worker's bindings.
export function worker(env: { DB: D1DatabaseLike; REPLAY: DurableObjectNamespaceLike }): [D1Store, ReplayStore] {
  return [d1Store({ client: env.DB }), durableObjectReplayStore({ client: env.REPLAY, shards: 8 })];
}

// The types refuse what the runtime refuses, and are not \`any\`: an unused @ts-expect-error fails.
export function refused(): void {
  // @ts-expect-error -- auth is required
  plantRouter({ store: ownStore });
  // @ts-expect-error -- prefix is Koa's name for basePath; basePath is not an option of plantRoutes
  plantRoutes({ ...koaOptions, basePath: '/api' });
  // @ts-expect-error -- basePath is Fastify's register prefix here, not an option of plantPlugin
  plantPlugin({ ...fastifyOptions, basePath: '/api' });
  // @ts-expect-error -- not a pg Pool, Client or PGlite
  postgresStore({ client: {} });
  // @ts-expect-error -- not a mysql2 Pool or connection
  mysqlStore({ client: {} });
  // @ts-expect-error -- not an AWS SDK client: no send
  dynamoDbStore({ client: {} });
  // @ts-expect-error -- not a Redis client
  redisStore({ client: {} });
  app.use((_req: Request, res: Response) => {
    // @ts-expect-error -- the subject is a string, so res.locals.plantstore is typed, not any
    const subject: number | undefined = res.locals.plantstore?.principal?.subject;
    void subject;
  });
  koa.use((ctx) => {
    // @ts-expect-error -- the subject is a string, so ctx.state.plantstore is typed, not any
    const subject: number | undefined = ctx.state.plantstore?.principal?.subject;
    void subject;
  });
  fastify.get('/typed', async (request) => {
    // @ts-expect-error -- the subject is a string, so request.plantstore is typed, not any
    const subject: number | undefined = request.plantstore?.principal?.subject;
    return subject;
  });
}

export async function start(): Promise<void> {
  await onPool.ensureSchema();
  await router.service.ready();
  await routes.service.close();
  await plugin.service.ready();
}

// The testing kit: a token issuer, and the conformance suite with a test runner's registrars.
export async function issue(): Promise<string> {
  const issuer: TokenIssuer = await createTokenIssuer();
  try {
    return await issuer.sign({ scope: 'plants:write' });
  } finally {
    await issuer.close();
  }
}
export function conformance(runner: TestRegistrar): void {
  describeStoreConformance(runner, 'my store', { create: () => ownStore });
}
`;

const STRICT = { strict: true, skipLibCheck: false, noEmit: true };

/** Each consumer's compiler options: ESM and CommonJS packages on nodenext, and a Nest app's. */
const TSCONFIGS = {
  esm: { module: 'nodenext', target: 'es2022', ...STRICT },
  cjs: { module: 'nodenext', target: 'es2022', ...STRICT },
  // `nest new`'s settings before Nest 11: what most existing Nest apps still compile with.
  nest: {
    module: 'commonjs',
    target: 'es2021',
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    allowSyntheticDefaultImports: true,
    ...STRICT,
  },
};

// ---------------------------------------------------------------------------------------------
// Running things

const { results, timed } = stepLog();

/** At most this many steps at once: they are CPU-bound (PGlite, tsc), more would only slow each. */
const slots = { free: Math.max(2, availableParallelism()), waiting: [] };

/** Runs one named step, timing it and recording its outcome; a failure does not stop the others. */
async function step(name, action) {
  if (slots.free === 0) await new Promise((resolve) => slots.waiting.push(resolve));
  else slots.free -= 1;
  try {
    return await timed(name, action);
  } finally {
    const next = slots.waiting.shift();
    if (next === undefined) slots.free += 1;
    else next();
  }
}

// ---------------------------------------------------------------------------------------------
// The steps

/** Makes a scenario's scratch project and installs the tarballs and its versions with npm. */
async function install(scenario, folder, tarballs) {
  const project = join(folder, scenario.name);
  await mkdir(join(project, 'esm'), { recursive: true });
  await mkdir(join(project, 'cjs'));
  await mkdir(join(project, 'nest'));
  const manifest = {
    name: `plantstore-installed-${scenario.name}`,
    version: '0.0.0',
    private: true,
  };
  await writeFile(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // One npm command for all tarballs: the core tarball satisfies the others' @plantstore/core.
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...tarballs,
      ...scenario.install,
      ...COMMON,
    ],
    { cwd: project },
  );
  // What npm installed: one copy of our packages (from the tarballs), the majors asked for.
  const version = async (name, from = project) =>
    JSON.parse(await readFile(join(from, 'node_modules', name, 'package.json'), 'utf8')).version;
  for (const [name, major] of Object.entries(scenario.expect)) {
    const got = await version(name);
    if (!got.startsWith(major)) throw new Error(`${name} ${got} installed, ${major}x expected.`);
  }
  for (const name of PACKAGES.slice(1)) {
    const nested = join(project, 'node_modules/@plantstore', name, 'node_modules/@plantstore/core');
    if (existsSync(nested)) throw new Error(`@plantstore/${name} got its own @plantstore/core.`);
  }
  const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8'));
  for (const name of PACKAGES) {
    const entry = lock.packages[`node_modules/@plantstore/${name}`];
    if (entry?.resolved?.startsWith('file:') !== true) {
      throw new Error(
        `@plantstore/${name} was not installed from its tarball: ${JSON.stringify(entry)}`,
      );
    }
  }
  const pretty = async (name) => `${name} ${await version(name)}`;
  return (
    await Promise.all(
      [
        'express',
        'koa',
        'fastify',
        '@types/express',
        '@types/koa',
        'typescript',
        'pg',
        '@electric-sql/pglite',
        'mysql2',
        '@aws-sdk/client-dynamodb',
        'redis',
        'ioredis',
      ].map(pretty),
    )
  ).join(', ');
}

/** Runs serve.mjs or serve.cjs in the scenario's project. */
async function serve(project, file, source) {
  await writeFile(join(project, file), source);
  const { stdout, stderr } = await run(process.execPath, [file], {
    cwd: project,
    timeout: 180_000,
  });
  if (!stdout.includes('"express":"ok","koa":"ok","fastify":"ok"'))
    throw new Error(`${file} printed: ${stdout}${stderr}`);
  const warnings = stderr.trim();
  return warnings === ''
    ? 'Express 200 + Koa 200 + Fastify 200, exact id'
    : `ok, with stderr: ${warnings}`;
}

/** Type-checks the consumer in esm/ (type module), cjs/ or nest/ (type commonjs) with the installed tsc. */
async function typecheck(project, kind) {
  const folder = join(project, kind);
  await writeFile(
    join(folder, 'package.json'),
    `${JSON.stringify({ type: kind === 'esm' ? 'module' : 'commonjs' })}\n`,
  );
  const tsconfig = { compilerOptions: TSCONFIGS[kind], files: ['consumer.ts'] };
  await writeFile(join(folder, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  await writeFile(join(folder, 'consumer.ts'), CONSUMER_TS);
  const typescript = join(project, 'node_modules/typescript');
  const { version, bin } = JSON.parse(await readFile(join(typescript, 'package.json'), 'utf8'));
  const tsc = join(typescript, typeof bin === 'string' ? bin : bin.tsc);
  const { code, stdout, stderr } = await run(
    process.execPath,
    [tsc, '-p', 'tsconfig.json', '--pretty', 'false'],
    {
      cwd: folder,
      timeout: 180_000,
      allowFailure: true,
    },
  );
  const { ours, theirs } = classifyDiagnostics(`${stdout}${stderr}`);
  if (ours.length > 0 || (code !== 0 && theirs.size === 0)) {
    throw new Error(
      `tsc ${version}, errors in our types or the consumer:\n${ours.join('\n') || stdout + stderr}`,
    );
  }
  const notes = [...theirs].map(([name, { count, first }]) => `${name}: ${count} (${first})`);
  return `tsc ${version}: our types clean${notes.length === 0 ? '' : `; other packages' .d.ts errors: ${notes.join('; ')}`}`;
}

/**
 * Splits tsc's errors: in our packed types or the consumer (a failure), or in another package's
 * declaration files, which `skipLibCheck: false` also checks (reported, not ours to fix here).
 *
 * @param {string} output - what tsc printed
 */
function classifyDiagnostics(output) {
  const ours = [];
  const theirs = new Map();
  let current;
  for (const line of output.split('\n')) {
    const match = /^(\S.*?)\(\d+,\d+\): error (TS\d+: .*)$/u.exec(line);
    if (match === null) {
      if (current !== undefined && /^\s/u.test(line) && line.trim() !== '') current.push(line);
      continue;
    }
    const [, file, message] = match;
    const owner = /node_modules\/((?:@[^/]+\/)?[^/]+)\//u.exec(file.replaceAll('\\', '/'))?.[1];
    if (owner === undefined || owner.startsWith('@plantstore/')) {
      current = ours;
      ours.push(line);
    } else {
      current = undefined;
      const entry = theirs.get(owner) ?? { count: 0, first: message };
      entry.count += 1;
      theirs.set(owner, entry);
    }
  }
  return { ours, theirs };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  const scratch = await realpath(await mkdtemp(join(tmpdir(), 'plantstore-installed-')));
  if (!relative(root, scratch).startsWith('..')) {
    throw new Error(`The scratch folder ${scratch} is inside the workspace: set TMPDIR elsewhere.`);
  }
  const packs = join(scratch, 'tarballs');
  await mkdir(packs);
  try {
    let tarballs = [];
    const packed = await step('pack (pnpm pack, workspace:^ replaced)', async () => {
      const { files, summary } = await packAll(packs);
      tarballs = files;
      return summary;
    });
    if (packed) {
      await Promise.all(
        SCENARIOS.map(async (scenario) => {
          const project = join(scratch, scenario.name);
          const label = (what) => `${scenario.title}: ${what}`;
          if (!(await step(label('npm install'), () => install(scenario, scratch, tarballs))))
            return;
          await Promise.all([
            step(label('serve.mjs (ESM)'), () => serve(project, 'serve.mjs', SERVE_MJS)),
            step(label('serve.cjs (CommonJS)'), () => serve(project, 'serve.cjs', SERVE_CJS)),
            step(label('tsc, ESM consumer'), () => typecheck(project, 'esm')),
            step(label('tsc, CommonJS consumer'), () => typecheck(project, 'cjs')),
            step(label('tsc, Nest app (module commonjs)'), () => typecheck(project, 'nest')),
          ]);
        }),
      );
    }
  } finally {
    if (keep) console.log(`Scratch projects kept in ${scratch}`);
    else await rm(scratch, { recursive: true, force: true });
  }

  console.log('\nPlantstore installed from its packed tarballs, outside the workspace:\n');
  for (const result of results) {
    const time = `${(result.ms / 1000).toFixed(1)} s`.padStart(7);
    console.log(
      `${result.ok ? 'ok  ' : 'FAIL'} ${time}  ${result.name}${result.ok ? `: ${result.detail}` : ''}`,
    );
  }
  const failed = results.filter((result) => !result.ok);
  for (const result of failed) {
    console.log(
      `\n--- ${result.name}\n${result.error instanceof Error ? result.error.message : String(result.error)}`,
    );
  }
  const expected = 1 + SCENARIOS.length * 6;
  const total = ((performance.now() - started) / 1000).toFixed(1);
  if (failed.length > 0 || results.length !== expected) {
    console.log(
      `\n${failed.length} of ${expected} steps failed (${results.length} ran) in ${total} s.`,
    );
    process.exitCode = 1;
  } else {
    console.log(`\nAll ${expected} steps passed in ${total} s.`);
  }
}

await main();
