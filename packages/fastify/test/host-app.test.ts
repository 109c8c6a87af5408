import { createPlantService, memoryStore } from '@plantstore/core';
import { brokenService, expectError } from '@plantstore/http-suite';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type PlantPlugin, plantPlugin, type PlantRequestState } from '../src/index';
import { useFixture } from './fixture';
import { countingErrorHandler, type FastifyFactory, majors, start } from './hosts';

const fixture = useFixture();

/**
 * An "existing" app: its own `GET /plants`, a JSON route on Fastify's own parser, a failing route,
 * a 404 handler and an error handler, with the plugin registered beside them.
 */
function existingApp(
  fastify: FastifyFactory,
  plugin: PlantPlugin,
  before: (app: FastifyInstance) => void = () => undefined,
  options: FastifyServerOptions = {},
) {
  const app = fastify(options);
  const errors = countingErrorHandler(app);
  before(app);
  app.get('/plants', () => ({ host: 'plant list' }));
  app.post('/echo', (request) => ({ host: 'echo', body: request.body }));
  app.get('/boom', () => {
    throw new Error('host failure');
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ host: 'not found' }));
  void app.register(plugin);
  return { app, errors };
}

const plugin = (): PlantPlugin => plantPlugin({ store: memoryStore(), auth: fixture.auth() });

for (const [name, fastify] of majors) {
  describe(`${name}: the plugin inside an existing app`, () => {
    it("keeps the host's own GET /plants, JSON route, 404 handler and error handler working", async () => {
      const { app, errors } = existingApp(fastify, plugin());
      const host = fixture.track(await start(app));
      await fixture.expectHostRoutes(host.url);
      const echo = await fixture.post(host.url, '{"a":1}', { path: '/echo' });
      expect([echo.status, echo.json]).toEqual([200, { host: 'echo', body: { a: 1 } }]);
      // Fastify's JSON parser still judges the host's own routes, through the host's error handler.
      const bad = await fixture.post(host.url, '{"a":', { path: '/echo' });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ host: 'error handler' });
      expect(errors).toHaveLength(2);
      expect((await fixture.post(host.url, '{"id":1,"name":"a"}')).status).toBe(200);
      expectError(await fixture.post(host.url, '{"id":2,'), 400, /not valid JSON/);
      expect(errors).toHaveLength(2);
    });

    it('puts the principal on request.plantstore for the host onResponse hook', async () => {
      const seen: (PlantRequestState | undefined)[] = [];
      const { app } = existingApp(fastify, plugin(), (host) =>
        host.addHook('onResponse', (request, _reply, done) => {
          seen.push(request.plantstore);
          done();
        }),
      );
      const host = fixture.track(await start(app));
      await fixture.expectPrincipalSeen(host.url, seen);
    });

    it("runs the host's hooks around the route; onSend sees and decorates its answer", async () => {
      const hooks: string[] = [];
      const { app } = existingApp(fastify, plugin(), (host) => {
        host.addHook('onRequest', (_request, reply, done) => {
          hooks.push('onRequest');
          void reply.header('vary', 'Origin');
          done();
        });
        host.addHook('preHandler', (_request, _reply, done) => {
          hooks.push('preHandler');
          done();
        });
        host.addHook('onSend', (_request, reply, payload, done) => {
          hooks.push(`onSend ${String(payload)}`);
          void reply.header('x-observed', String(reply.statusCode));
          done(null, payload);
        });
      });
      const host = fixture.track(await start(app));
      const reply = await fixture.post(host.url, '{"id":1,"name":"Fern"}');
      expect([reply.status, reply.text]).toEqual([200, '{"name":"Fern"}']);
      expect(reply.headers.vary).toBe('Origin, Authorization');
      expect(reply.headers['x-observed']).toBe('200');
      expect(hooks).toEqual(['onRequest', 'preHandler', 'onSend {"name":"Fern"}']);
    });

    it("sends an error of a host hook on the route to the host's error handler", async () => {
      const { app, errors } = existingApp(fastify, plugin(), (host) =>
        host.addHook('preHandler', (request, _reply, done) => {
          done(
            request.headers['x-fail'] === undefined ? undefined : new Error('host hook failure'),
          );
        }),
      );
      const host = fixture.track(await start(app));
      const reply = await fixture.post(host.url, '{"id":1,"name":"a"}', {
        headers: { 'x-fail': '1' },
      });
      expect([reply.status, reply.json]).toEqual([
        500,
        { host: 'error handler', message: 'host hook failure' },
      ]);
      expect(errors).toHaveLength(1);
    });

    it("routes a truly unexpected failure to the host's error handler, never to an unhandled rejection", async () => {
      const broken = brokenService(
        createPlantService({ store: memoryStore(), auth: fixture.auth() }),
      );
      const { app, errors } = existingApp(fastify, plantPlugin(broken));
      const host = fixture.track(await start(app));
      await fixture.expectHostErrorHandler(host.url, errors, 'adapter bug');
    });

    it('logs a 5xx through request.log, with its reqId, when no onError is set', async () => {
      const lines: Record<string, unknown>[] = [];
      const stream = { write: (line: string) => void lines.push(JSON.parse(line) as never) };
      const store = { insert: () => Promise.reject(new Error('database connection refused')) };
      const logged = plantPlugin({ store, auth: fixture.auth() });
      const { app } = existingApp(fastify, logged, undefined, { logger: { stream } });
      const host = fixture.track(await start(app));
      expectError(await fixture.post(host.url, '{"id":1,"name":"a"}'), 500, /internal error/);
      const line = lines.find(({ msg }) => String(msg).startsWith('plantstore:'));
      const incoming = lines.find(({ msg }) => msg === 'incoming request');
      expect(line).toEqual({
        level: 50,
        time: line?.['time'],
        pid: process.pid,
        hostname: line?.['hostname'],
        reqId: incoming?.['reqId'],
        msg: 'plantstore: 500 store_failed on POST /plants: The store failed. Caused by Error: database connection refused',
        plantstore: {
          status: 500,
          code: 'store_failed',
          message: 'The store failed.',
          method: 'POST',
          path: '/plants',
          causes: [{ name: 'Error', message: 'database connection refused' }],
        },
      });
    });

    it("follows Fastify's own routing options for trailing slashes and case", async () => {
      const strict = existingApp(fastify, plugin());
      const strictHost = fixture.track(await start(strict.app));
      for (const path of ['/plants/', '/Plants']) {
        const reply = await fixture.post(strictHost.url, '{"id":1,"name":"a"}', { path });
        expect([reply.status, reply.json]).toEqual([404, { host: 'not found' }]);
      }
      // Fastify 5 reads the router's options from `routerOptions`; Fastify 4 from the top level.
      const routing = { ignoreTrailingSlash: true, caseSensitive: false };
      const options = name === 'Fastify 4' ? routing : { routerOptions: routing };
      const lenient = existingApp(fastify, plugin(), undefined, options);
      const lenientHost = fixture.track(await start(lenient.app));
      for (const [path, id] of [
        ['/plants/', 1],
        ['/Plants', 2],
      ] as const) {
        const reply = await fixture.post(lenientHost.url, `{"id":${id},"name":"a"}`, { path });
        expect(reply.status).toBe(200);
      }
    });
  });
}
