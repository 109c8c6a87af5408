import { createPlantService, memoryStore, type PlantServiceOptions } from '@plantstore/core';
import { brokenService, expectError, listen, send, useHostFixture } from '@plantstore/http-suite';
import {
  EXPRESS_MAJORS,
  type ExpressFactory,
  hostCatchAll,
  hostErrorHandler,
  hostRecord,
} from '@plantstore/http-suite/hosts';
import type { Express, RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { type PlantLocals, plantRouter } from '../src/index';

const fixture = useHostFixture();

/** An "existing" app: its own GET /plants and /boom, the route, a 404 handler and an error handler. */
function existingApp(
  express: ExpressFactory,
  route: RequestHandler,
  before: (app: Express) => void = () => undefined,
) {
  const { errors, hooks } = hostRecord();
  const app = express();
  before(app);
  app.use(route);
  app.get('/plants', (_req, res) => void res.json({ host: 'plant list' }));
  app.get('/boom', () => {
    throw new Error('host failure');
  });
  app.use((_req, res) => void res.status(404).json({ host: 'not found' }));
  app.use(hostErrorHandler(hooks));
  return { app, errors };
}

for (const [name, express] of Object.entries(EXPRESS_MAJORS)) {
  describe(`${name}: the route inside an existing app`, () => {
    it("keeps the host's own GET /plants, its 404 handler and its error handler working", async () => {
      const { app, errors } = existingApp(express, plantRouter(fixture.options()));
      const host = fixture.track(await listen(app));
      await fixture.expectHostRoutes(host.url);
      expect(errors).toHaveLength(1);
      expect((await fixture.post(host.url, '{"id":1,"name":"a"}')).status).toBe(200);
      expect(errors).toHaveLength(1);
    });

    it('routes a truly unexpected failure to next(err), never to an unhandled rejection', async () => {
      const broken = brokenService(createPlantService(fixture.options()));
      const { app, errors } = existingApp(express, plantRouter(broken));
      const host = fixture.track(await listen(app));
      await fixture.expectHostErrorHandler(host.url, errors, 'adapter bug');
    });

    it('puts the principal on res.locals.plantstore for a later finish observer', async () => {
      const seen: (PlantLocals | undefined)[] = [];
      const { app } = existingApp(express, plantRouter(fixture.options()), (host) =>
        host.use((_req, res, next) => {
          res.on('finish', () => seen.push(res.locals.plantstore));
          next();
        }),
      );
      const host = fixture.track(await listen(app));
      await fixture.expectPrincipalSeen(host.url, seen);
    });

    it('adds Authorization to a Vary the host already set instead of replacing it', async () => {
      const { app } = existingApp(express, plantRouter(fixture.options()), (host) =>
        host.use((_req, res, next) => {
          res.vary('Origin');
          next();
        }),
      );
      const host = fixture.track(await listen(app));
      const reply = await fixture.post(host.url, '{"id":1,"name":"a"}');
      expect(reply.headers.vary).toBe('Origin, Authorization');
    });

    it('answers the same behind trust proxy and forwarded headers', async () => {
      const { app } = existingApp(express, plantRouter(fixture.options()), (host) =>
        host.set('trust proxy', true),
      );
      const host = fixture.track(await listen(app));
      const reply = await fixture.post(host.url, '{"id":1,"name":"Proxied"}', {
        headers: {
          'x-forwarded-for': '203.0.113.7',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'plants.example.com',
          'x-forwarded-prefix': '/elsewhere',
        },
      });
      expect([reply.status, reply.text]).toEqual([200, '{"name":"Proxied"}']);
    });

    it('matches /plants/ and /Plants by default, as Express does for its own routes', async () => {
      const { app } = existingApp(express, plantRouter(fixture.options()));
      const host = fixture.track(await listen(app));
      expect(
        (await fixture.post(host.url, '{"id":1,"name":"a"}', { path: '/plants/' })).status,
      ).toBe(200);
      expect(
        (await fixture.post(host.url, '{"id":2,"name":"a"}', { path: '/Plants' })).status,
      ).toBe(200);
      expect((await send(host.url, { method: 'GET', path: '/plants/' })).json).toEqual({
        host: 'plant list',
      });
    });

    it('leaves /plants/ and /Plants to the host with strict and case-sensitive routing on both sides', async () => {
      const options = fixture.options({ strictRouting: true, caseSensitiveRouting: true });
      const { app } = existingApp(express, plantRouter(options), (host) => {
        host.set('strict routing', true);
        host.set('case sensitive routing', true);
      });
      const host = fixture.track(await listen(app));
      expect((await fixture.post(host.url, '{"id":1,"name":"a"}')).status).toBe(200);
      for (const path of ['/plants/', '/Plants']) {
        const reply = await fixture.post(host.url, '{"id":2,"name":"a"}', { path });
        expect([reply.status, reply.json]).toEqual([404, { host: 'not found' }]);
      }
      // The host's own GET /plants answers /plants/ no more either: both sides agree.
      expect((await send(host.url, { method: 'GET', path: '/plants/' })).status).toBe(404);
    });

    it('serves two mounts from one service: one store, replays and conflicts across them', async () => {
      const store = memoryStore();
      const service = createPlantService({ store, auth: fixture.auth() });
      const first = plantRouter(service);
      const app = express();
      app.use('/a', first);
      app.use('/b', plantRouter(service));
      app.use(hostCatchAll());
      const root = fixture.track(await listen(app));
      const body = '{"id":42,"name":"Shared"}';
      expect((await fixture.post(`${root.url}/a`, body)).status).toBe(200);
      const replay = await fixture.post(`${root.url}/b`, body);
      expect([replay.status, replay.text]).toEqual([200, '{"name":"Shared"}']);
      expectError(await fixture.post(`${root.url}/b`, '{"id":42,"name":"Other"}'), 409);
      expect(store.size).toBe(1);
      expect(first.service).toBe(service);
    });
  });
}

describe('plantRouter', () => {
  it('refuses bad options when it is called, with a TypeError naming the option', () => {
    // Deliberately wrong at run time, as from untyped JavaScript.
    const options = { store: memoryStore() } as unknown as PlantServiceOptions;
    expect(() => plantRouter(options)).toThrow(/option "auth"/);
    expect(() => plantRouter(options)).toThrow(TypeError);
  });

  it('exposes the service it made from options, for ready() and close()', async () => {
    const route = plantRouter(fixture.options());
    await expect(route.service.ready()).resolves.toBeUndefined();
    await route.service.close();
  });
});
