import { createPlantService, jwtBearer, memoryStore, type PlantStore } from '@plantstore/core';
import { expectError } from '@plantstore/http-suite';
import { describe, expect, it, vi } from 'vitest';
import { plantPlugin, type PlantPluginOptions } from '../src/index';
import { useFixture } from './fixture';
import { majors, start } from './hosts';

const fixture = useFixture();

/** A memory store that counts its `close()` calls. */
function closingStore(): PlantStore & { readonly closed: number } {
  const memory = memoryStore();
  let closed = 0;
  return {
    insert: (plant, context) => memory.insert(plant, context),
    close() {
      closed += 1;
      return Promise.resolve();
    },
    get closed() {
      return closed;
    },
  };
}

describe('plantPlugin options', () => {
  it("refuses the core's routing options, naming what Fastify decides instead", () => {
    const base = { store: memoryStore(), auth: fixture.auth() };
    const cases: [string, RegExp][] = [
      ['basePath', /takes no "basePath".*prefix/],
      ['strictRouting', /takes no "strictRouting".*ignoreTrailingSlash/],
      ['caseSensitiveRouting', /takes no "caseSensitiveRouting".*caseSensitive/],
    ];
    for (const [option, message] of cases) {
      // Bypasses the types on purpose, as a JavaScript caller would.
      const options = { ...base, [option]: option === 'basePath' ? '/api' : true };
      expect(() => plantPlugin(options as PlantPluginOptions)).toThrow(message);
      expect(() => plantPlugin(options as PlantPluginOptions)).toThrow(TypeError);
    }
  });

  it("passes other misconfigurations to the core's TypeError, at once", () => {
    const noAuth = { store: memoryStore() } as unknown as PlantPluginOptions;
    expect(() => plantPlugin(noAuth)).toThrow(/option "auth"/);
    expect(() => plantPlugin(null as unknown as PlantPluginOptions)).toThrow(TypeError);
  });

  it('refuses an openApiTag that is not a non-empty string, at once', () => {
    const base = { store: memoryStore(), auth: fixture.auth() };
    expect(() => plantPlugin({ ...base, openApiTag: '' })).toThrow(
      new TypeError('Plantstore: option "openApiTag" must be a non-empty string; received ""'),
    );
  });
});

for (const [name, fastify] of majors) {
  describe(`${name}: registrations and the service's life`, () => {
    it("waits for the service's warm-up while it registers, with the timers faked", async () => {
      // The warm-up depends on no timer: a host's test that fakes them still registers.
      vi.useFakeTimers();
      try {
        const plants = plantPlugin({ store: memoryStore(), auth: fixture.auth() });
        const app = fastify();
        await app.register(plants);
        await app.ready();
        // Settled before registration ended: a callback on it runs before this test's next turn.
        let settled = false;
        void plants.service.warmUp().then(() => (settled = true));
        await Promise.resolve();
        expect(settled).toBe(true);
        const answer = await app.inject({ method: 'POST', url: '/plants' });
        expect(answer.statusCode).toBe(401);
        await app.close();
      } finally {
        vi.useRealTimers();
      }
    });

    it('registers while the key set is down, and the route answers 503 until it is back', async () => {
      const auth = jwtBearer({
        // Nothing listens on port 9 of the loopback address: every fetch of the key set fails.
        jwksUri: 'http://127.0.0.1:9/jwks.json',
        issuer: 'https://id.example.test/',
        audience: 'https://plants.example.test',
        jwks: { timeoutMs: 1_000 },
      });
      const plants = plantPlugin({ store: memoryStore(), auth });
      await expect(plants.service.ready()).rejects.toMatchObject({ status: 503 });
      const app = fastify();
      await app.register(plants);
      await app.ready();
      const host = await start(app);
      try {
        expectError(await fixture.post(host.url, '{"id":7,"name":"Ivy"}'), 503);
      } finally {
        await host.close();
      }
    });

    it('serves one service from two prefixes, and leaves closing it to its owner', async () => {
      const store = closingStore();
      const service = createPlantService({ store, auth: fixture.auth() });
      const plants = plantPlugin(service);
      expect(plants.service).toBe(service);
      const app = fastify();
      await app.register(plants, { prefix: '/a' });
      await app.register(plants, { prefix: '/b' });
      const host = await start(app);
      try {
        expect((await fixture.post(`${host.url}/a`, '{"id":7,"name":"Ivy"}')).status).toBe(200);
        expect((await fixture.post(`${host.url}/b`, '{"id":7,"name":"Ivy"}')).status).toBe(200);
        expectError(await fixture.post(`${host.url}/b`, '{"id":7,"name":"Fern"}'), 409);
      } finally {
        await host.close();
      }
      expect(store.closed).toBe(0);
    });

    it('closes a service it made when the app closes, once for all its registrations', async () => {
      const store = closingStore();
      const plants = plantPlugin({ store, auth: fixture.auth() });
      const app = fastify();
      await app.register(plants, { prefix: '/a' });
      await app.register(plants, { prefix: '/b' });
      const host = await start(app);
      expect((await fixture.post(`${host.url}/a`, '{"id":1,"name":"a"}')).status).toBe(200);
      await host.close();
      expect(store.closed).toBe(1);
    });

    it('refuses to register where the app already decorates request.plantstore', async () => {
      const app = fastify();
      app.decorateRequest('plantstore', undefined);
      await expect(
        app.register(plantPlugin({ store: memoryStore(), auth: fixture.auth() })),
      ).rejects.toMatchObject({ code: 'FST_ERR_DEC_ALREADY_PRESENT' });
      await app.close();
    });

    it('registers under the name @plantstore/fastify', async () => {
      const app = fastify();
      await app.register(plantPlugin({ store: memoryStore(), auth: fixture.auth() }));
      expect(app.hasPlugin('@plantstore/fastify')).toBe(true);
      await app.close();
    });
  });
}
