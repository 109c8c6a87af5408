import { createServer } from 'node:http';
import bodyParser from '@koa/bodyparser';
import { jwtBearer, memoryStore, type PlantStoreError } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { type ContractHost, expectError, listen, send } from '@plantstore/http-suite';
import type Koa from 'koa';
import koaBodyParser from 'koa-bodyparser';
import Koa3 from 'koa3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { plantRoutes, type PlantRoutes } from '../src/index';
import { nodeListener } from './hosts';

type Parser = () => Koa.Middleware;

// What a host gets with each parser; the cases of the contract suite that the parser decides are
// listed in contract-matrix.ts.
describe.each([
  ['@koa/bodyparser', () => bodyParser()],
  ['koa-bodyparser', () => koaBodyParser()],
] as const satisfies readonly (readonly [string, Parser])[])('with %s', (_, parser) => {
  let issuer: TokenIssuer;
  let token: string;
  const hosts: ContractHost[] = [];
  const rejected: PlantStoreError[] = [];
  const emitted: unknown[] = [];

  beforeAll(async () => {
    issuer = await createTokenIssuer();
    token = await issuer.sign();
  });
  afterEach(async () => {
    rejected.length = 0;
    emitted.length = 0;
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });
  afterAll(async () => {
    await issuer.close();
  });

  const start = async (order: 'parser first' | 'route first'): Promise<string> => {
    const plants: PlantRoutes = plantRoutes({
      prefix: '/api',
      store: memoryStore(),
      auth: jwtBearer({
        jwksUri: issuer.jwksUri,
        issuer: issuer.issuer,
        audience: issuer.audience,
      }),
      onRejected: (error) => void rejected.push(error),
    });
    const app = new Koa3();
    app.on('error', (error: unknown) => void emitted.push(error));
    app.use(order === 'parser first' ? parser() : plants);
    app.use(order === 'parser first' ? plants : parser());
    app.use((ctx) => {
      ctx.body = { hostSaw: ctx.request.body };
    });
    const host = await listen(createServer(nodeListener(app)));
    hosts.push(host);
    return host.url;
  };

  const create = (url: string, body: string, contentType = 'application/json') =>
    send(url, {
      path: '/api/plants',
      body,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    });

  it('uses the raw text the parser kept, so a lone surrogate and U+0000 are still refused', async () => {
    const url = await start('parser first');
    expectError(await create(url, '{"id":1,"name":"\\ud800"}'), 400);
    expectError(await create(url, '{"id":1,"name":"a\\u0000b"}'), 400);
    expect(rejected.map((error) => error.code)).toEqual([
      'body_lone_surrogate',
      'string_contains_nul',
    ]);
  });

  it('reads the stream itself when the parser left a media type it does not parse', async () => {
    const url = await start('parser first');
    expectError(await create(url, '{"id":1,"name":"a"}', 'text/plain'), 415);
    expectError(await create(url, '{"id":1,"name":"a"}', 'application/jsonx'), 415);
    expect(emitted).toEqual([]);
  });

  it("leaves malformed JSON to the parser's own 400, which the host's error handling sees", async () => {
    const url = await start('parser first');
    const reply = await create(url, '{"id":1,');
    expect(reply.status).toBe(400);
    expect(reply.json).toBeUndefined();
    expect(emitted).toHaveLength(1);
  });

  it('answers malformed JSON itself when mounted before the parser, which still serves the host', async () => {
    const url = await start('route first');
    expectError(await create(url, '{"id":1,'), 400, /not valid JSON/);
    const hostRoute = await send(url, {
      path: '/elsewhere',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(hostRoute.json).toEqual({ hostSaw: { a: 1 } });
    expect(emitted).toEqual([]);
  });
});
