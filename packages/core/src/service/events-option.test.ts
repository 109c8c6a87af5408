import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import type { PlantRequest } from '../http/request';
import { memoryStore } from '../plant/memory-store';
import type { PlantStore } from '../plant/store';
import { createPlantService } from './service';
import type { PlantServiceOptions } from './service-options';

const secret = new TextEncoder().encode('a-test-secret-that-is-at-least-32-bytes-long');
const token = (sub: string) =>
  new SignJWT({ sub, client_id: 'app-1' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(secret);

const post = async (body: string, sub = 'alice', path = '/plants'): Promise<PlantRequest> => ({
  method: 'POST',
  path,
  headers: { authorization: `Bearer ${await token(sub)}`, 'content-type': 'application/json' },
  body,
});

const withEvents = (options: Partial<PlantServiceOptions> = {}) => {
  const store = memoryStore();
  const service = createPlantService({
    logger: false,
    store,
    auth: jwtBearer({ secret }),
    events: true,
    ...options,
  });
  return { store, service };
};

const later = new Date(Date.now() + 60_000);
const bodies = async (store: ReturnType<typeof memoryStore>) =>
  (await store.outbox.due(100, later)).map(
    (event) => JSON.parse(event.body) as Record<string, unknown>,
  );

describe('the events option', () => {
  it('writes one plant.created event per create, none for a replay or a conflict', async () => {
    const { store, service } = withEvents();
    expect((await service.handle(await post('{"id":7,"name":"Fern"}'))).status).toBe(200);
    const replay = await service.handle(await post('{"id":7,"name":"Fern"}'));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await service.handle(await post('{"id":7,"name":"Other"}'))).status).toBe(409);
    expect((await service.handle(await post('{"id":7,"name":"Fern"}', 'bob'))).status).toBe(409);
    const [event, ...rest] = await bodies(store);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      specversion: '1.0',
      type: 'plant.created',
      source: '/plants',
      subject: '7',
      owner: 'alice',
      clientid: 'app-1',
      data: { id: 7, name: 'Fern' },
    });
    expect(event?.['time']).toBe(store.get(7n)?.createdAt?.toISOString());
  });

  it('names the source from publicUrl and basePath, or as the host sets it', async () => {
    const named = withEvents({ publicUrl: 'https://api.example.com/', basePath: '/api' });
    await named.service.handle(await post('{"id":1,"name":"Fern"}', 'alice', '/api/plants'));
    expect((await bodies(named.store))[0]?.['source']).toBe('https://api.example.com/api/plants');
    const relative = withEvents({ basePath: '/api' });
    await relative.service.handle(await post('{"id":1,"name":"Fern"}', 'alice', '/api/plants'));
    expect((await bodies(relative.store))[0]?.['source']).toBe('/api/plants');
    const own = withEvents({ events: { source: 'urn:plantstore:eu-1' } });
    await own.service.handle(await post('{"id":1,"name":"Fern"}'));
    expect((await bodies(own.store))[0]?.['source']).toBe('urn:plantstore:eu-1');
  });

  it('writes nothing when the option is off (the default) or false', async () => {
    for (const events of [undefined, false]) {
      const { store, service } = withEvents({ events });
      expect((await service.handle(await post('{"id":1,"name":"Fern"}'))).status).toBe(200);
      expect(await store.outbox.due(10, later)).toEqual([]);
    }
  });

  it('refuses, at start-up, a store without an outbox, naming the fix', () => {
    const memory = memoryStore();
    const store: PlantStore = { insert: (plant, context) => memory.insert(plant, context) };
    expect(() =>
      createPlantService({ store, auth: jwtBearer({ secret }), events: true, logger: false }),
    ).toThrow(
      new TypeError(
        'Plantstore: option "events" needs a store with an outbox, to write each event with its ' +
          'plant: use memoryStore(), a shipped store with its outbox on (docs/guides/events.md), ' +
          'or give your store an `outbox`; received a store without one',
      ),
    );
  });

  it('refuses a value of the wrong type, an unknown key and a source that is no URI-reference', () => {
    const make = (events: unknown) => () =>
      createPlantService({
        store: memoryStore(),
        auth: jwtBearer({ secret }),
        events: events as PlantServiceOptions['events'],
      });
    expect(make('yes')).toThrow(
      'Plantstore: option "events" must be true, false or { source }; received a string of 3 characters',
    );
    expect(make({ sorce: '/x' })).toThrow(
      'Plantstore: unknown option "events.sorce" (did you mean "events.source"?)',
    );
    expect(make({ source: 'has space' })).toThrow(
      'Plantstore: option "events.source" must be a URI-reference',
    );
    expect(make({ source: '' })).toThrow('option "events.source" must be a URI-reference');
    expect(make({ source: 5 })).toThrow('received 5');
  });
});
