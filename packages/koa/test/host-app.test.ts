import Router from '@koa/router';
import { createPlantService, memoryStore, type PlantServiceError } from '@plantstore/core';
import { listen, type Outgoing, send, useHostFixture } from '@plantstore/http-suite';
import { KOA_MAJORS, nodeListener } from '@plantstore/http-suite/hosts';
import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { type PlantState, plantRoutes } from '../src/index';

const SCOPE = 'plants:write';
const fixture = useHostFixture();

describe.each(Object.entries(KOA_MAJORS))('in a %s host app', (_, KoaApp) => {
  const serve = async (app: Koa): Promise<string> =>
    fixture.track(await listen(nodeListener(app))).url;

  const create = (url: string, body: string, headers: Outgoing['headers'] = {}) =>
    fixture.post(url, body, { path: '/api/plants', headers });

  const anonymous = (url: string) =>
    send(url, { path: '/api/plants', body: '{}', headers: { 'content-type': 'application/json' } });

  /**
   * An app whose host middleware reads the whole stream before the route and leaves on the request
   * what `keep` makes of the bytes (text, bytes, a parsed value, or nothing); the route refusals go
   * to `rejected`.
   */
  const readingHost = async (keep: (bytes: Buffer, ctx: Koa.Context) => unknown) => {
    const app = new KoaApp();
    const rejected: PlantServiceError[] = [];
    app.use(async (ctx, next) => {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      const kept = keep(Buffer.concat(chunks), ctx);
      if (kept !== undefined) (ctx.request as { body?: unknown }).body = kept;
      await next();
    });
    app.use(
      plantRoutes({
        ...fixture.options({ onRejected: (error) => void rejected.push(error) }),
        prefix: '/api',
      }),
    );
    return { url: await serve(app), rejected };
  };

  it('lets upstream middleware observe and decorate the status and body of every answer', async () => {
    const app = new KoaApp();
    const observed: { status: number; body: unknown }[] = [];
    app.use(async (ctx, next) => {
      const started = performance.now();
      await next();
      observed.push({ status: ctx.status, body: ctx.body });
      ctx.set('x-observed', String(ctx.status));
      ctx.set('x-response-time', `${(performance.now() - started).toFixed(1)}ms`);
    });
    app.use(plantRoutes({ ...fixture.options(), prefix: '/api' }));
    const url = await serve(app);

    const created = await create(url, '{"id":1,"name":"Fern"}');
    const refused = await create(url, '{"id":2,"name":"Fern"}', { authorization: 'Bearer' });
    for (const reply of [created, refused]) {
      expect(reply.headers['x-observed']).toBe(String(reply.status));
      expect(reply.headers['x-response-time']).toMatch(/ms$/);
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    expect(observed).toEqual([
      { status: 200, body: created.text },
      { status: 401, body: refused.text },
    ]);
  });

  it('adds Authorization to a Vary header an upstream CORS middleware set', async () => {
    const app = new KoaApp();
    app.use(async (ctx, next) => {
      ctx.vary('Origin');
      ctx.set('access-control-allow-origin', '*');
      await next();
    });
    app.use(plantRoutes({ ...fixture.options(), prefix: '/api' }));
    const url = await serve(app);

    const reply = await create(url, '{"id":3,"name":"Cors"}');
    expect(reply.headers.vary).toBe('Origin, Authorization');
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it("never throws a contract answer at the host's error middleware or app.on('error')", async () => {
    const app = new KoaApp();
    const caught: unknown[] = [];
    const emitted: unknown[] = [];
    app.on('error', (error: unknown) => void emitted.push(error));
    app.use(async (_ctx, next) => {
      try {
        await next();
      } catch (error) {
        caught.push(error);
        throw error;
      }
    });
    app.use(plantRoutes({ ...fixture.options(), prefix: '/api' }));
    const url = await serve(app);

    const statuses = [
      (await create(url, '{"id":1,')).status,
      (await anonymous(url)).status,
      (await create(url, '{"id":1,"name":"a"}', { 'content-type': 'text/plain' })).status,
      (await create(url, `{"id":1,"name":"${'x'.repeat(20_000)}"}`)).status,
    ];
    expect(statuses).toEqual([400, 401, 415, 413]);
    expect(caught).toEqual([]);
    expect(emitted).toEqual([]);
  });

  it('puts the principal on ctx.state.plantstore of every answer of the route, and only there', async () => {
    const app = new KoaApp();
    const seen: (PlantState | undefined)[] = [];
    app.use(async (ctx, next) => {
      await next();
      seen.push(ctx.state.plantstore);
    });
    app.use(plantRoutes({ ...fixture.options(), prefix: '/api' }));
    app.use((ctx) => {
      ctx.body = 'host';
    });
    const url = await serve(app);

    await create(url, '{"id":1,"name":"Fern"}');
    await create(url, '{"id":1,"name":"Other"}');
    await anonymous(url);
    await send(url, { method: 'GET', path: '/api/plants' });
    expect(seen.map((state) => state?.principal?.subject)).toEqual([
      'gardener',
      'gardener',
      undefined,
      undefined,
    ]);
    expect(seen[0]?.principal?.scopes).toEqual([SCOPE]);
    expect(seen[2]).toEqual({ principal: undefined });
    expect(seen[3]).toBeUndefined();
  });

  it('uses the text or bytes a parser left, and answers 400 when a middleware kept nothing', async () => {
    // Host middleware that read the stream and left text, bytes, or nothing at all.
    const { url, rejected } = await readingHost((bytes, ctx) => {
      const keep = ctx.get('x-keep');
      if (keep === 'text') return bytes.toString();
      return keep === 'bytes' ? bytes : undefined;
    });

    const exact = '{"id":9007199254740993,"name":"Exact"}';
    expect((await create(url, exact, { 'x-keep': 'text' })).status).toBe(200);
    expect((await create(url, exact, { 'x-keep': 'bytes' })).status).toBe(200);
    expect((await create(url, exact, { 'x-keep': 'nothing' })).status).toBe(400);
    expect(rejected.map((error) => error.code)).toEqual(['body_aborted']);
  });

  it('creates nothing behind a parser that keeps no raw text: every parsed id fails 500 (the server set-up)', async () => {
    // A host parser that consumes the stream and keeps only the parsed value, as many do.
    const { url, rejected } = await readingHost((bytes) => JSON.parse(bytes.toString()));

    const safe = await create(url, '{"id":9007199254740991,"name":"Safe","tag":"t"}');
    expect(safe.status).toBe(500);
    const unsafe = await create(url, '{"id":9007199254740993,"name":"Rounded"}');
    expect(unsafe.status).toBe(500);
    expect(unsafe.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(rejected.map((error) => error.code)).toEqual([
      'body_parsed_by_host',
      'body_parsed_by_host',
    ]);
  });

  it("answers POST on a router's prefixed path and leaves the host's GET on it alone", async () => {
    const app = new KoaApp();
    const api = new Router({ prefix: '/api' });
    const plants = plantRoutes(fixture.options());
    api.get('/plants', (ctx) => {
      ctx.body = { plants: 'listed by the host' };
    });
    api.post('/plants', plants.handler);
    api.all('/other', plants.handler, (ctx) => {
      ctx.body = `host:${ctx.method}`;
    });
    app.use(api.routes());
    const url = await serve(app);

    expect((await create(url, '{"id":5,"name":"Routed"}')).text).toBe('{"name":"Routed"}');
    const listed = await send(url, { method: 'GET', path: '/api/plants' });
    expect(listed.json).toEqual({ plants: 'listed by the host' });
    // Only POST is claimed even where a host registered the handler for every method.
    expect((await send(url, { method: 'PUT', path: '/api/other' })).text).toBe('host:PUT');
  });

  it('works from router.use at a path when that router has a route for it', async () => {
    const app = new KoaApp();
    const router = new Router();
    router.use('/api', plantRoutes({ ...fixture.options(), prefix: '/api' }));
    router.all('/api/{*rest}', (ctx) => {
      ctx.body = `host:${ctx.method} ${ctx.path}`;
    });
    app.use(router.routes());
    const url = await serve(app);

    expect((await create(url, '{"id":6,"name":"Used"}')).text).toBe('{"name":"Used"}');
    expect((await send(url, { method: 'GET', path: '/api/plants' })).text).toBe(
      'host:GET /api/plants',
    );
  });

  it('serves one created service from several mounts', async () => {
    const service = createPlantService({ ...fixture.options(), basePath: '/api' });
    const plants = plantRoutes(service);
    expect(plants.service).toBe(service);
    const app = new KoaApp();
    const v2 = new Router({ prefix: '/v2' });
    v2.post('/plants', plants.handler);
    app.use(plants);
    app.use(v2.routes());
    const url = await serve(app);

    expect((await create(url, '{"id":7,"name":"Shared"}')).status).toBe(200);
    const again = await fixture.post(url, '{"id":7,"name":"Shared"}', { path: '/v2/plants' });
    expect(again.status).toBe(200);
  });
});

describe('plantRoutes options', () => {
  it('fails at once with a TypeError for a basePath, which is called prefix here', () => {
    const options = { store: memoryStore(), auth: { verify: () => Promise.resolve(undefined) } };
    expect(() => plantRoutes({ ...options, basePath: '/api' } as never)).toThrow(
      /takes "prefix" instead of "basePath"/,
    );
  });

  it("fails at once with the core's TypeError when auth or the options are missing", () => {
    expect(() => plantRoutes({ store: memoryStore() } as never)).toThrow(/option "auth"/);
    expect(() => plantRoutes(undefined as never)).toThrow(/option "options"/);
  });
});
