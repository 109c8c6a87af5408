import { createPlantService, memoryStore, type PlantStore } from '@plantstore/core';
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
});

for (const [name, fastify] of majors) {
  describe(`${name}: registrations and the service's life`, () => {
    it("registers, and waits for the core's warm-up, while a test fakes the timers", async () => {
      // A fresh core, whose warm-up has not run yet: registering must not wait on a faked timer.
      vi.resetModules();
      vi.useFakeTimers();
      try {
        const fresh = await import('../src/index');
        const core = await import('@plantstore/core');
        const app = fastify();
        await app.register(fresh.plantPlugin({ store: core.memoryStore(), auth: fixture.auth() }));
        await app.ready();
        const answer = await app.inject({ method: 'POST', url: '/plants' });
        expect(answer.statusCode).toBe(401);
        await app.close();
      } finally {
        vi.useRealTimers();
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
