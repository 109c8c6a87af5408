import { memoryStore } from '@plantstore/core';
import { describe, expect, it } from 'vitest';
import { plantPlugin } from '../src/index';
import { useFixture } from './fixture';
import { majors } from './hosts';

const fixture = useFixture();

for (const [name, fastify] of majors) {
  describe(`${name}: app.inject()`, () => {
    it('answers injected requests as it answers over the network, ids exact', async () => {
      const store = memoryStore();
      const app = fastify();
      await app.register(plantPlugin({ store, auth: fixture.auth() }), { prefix: '/api' });
      const json = { 'content-type': 'application/json' };
      const inject = (
        payload: string,
        headers: Record<string, string> = { ...json, authorization: `Bearer ${fixture.token}` },
      ) => app.inject({ method: 'POST', url: '/api/plants', payload, headers });
      try {
        const created = await inject('{"id":9007199254740993,"name":"Injected"}');
        expect([created.statusCode, created.body]).toEqual([200, '{"name":"Injected"}']);
        expect(created.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(store.get(9007199254740993n)?.name).toBe('Injected');
        const duplicate = await inject('{"id":1,"name":"a","name":"b"}');
        expect([duplicate.statusCode, duplicate.json()]).toMatchObject([400, { error: 400 }]);
        const tooLarge = await inject(`{"id":2,"name":"${'x'.repeat(16_384)}"}`);
        expect([tooLarge.statusCode, tooLarge.headers.connection]).toEqual([413, 'close']);
        const anonymous = await inject('{"id":3,"name":"a"}', json);
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="plantstore"');
      } finally {
        await app.close();
      }
    });
  });
}
