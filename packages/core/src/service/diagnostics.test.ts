import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel, type TracingChannelSubscribers } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { ServiceUnavailableError } from '../errors/server-errors';
import { memoryStore } from '../plant/memory-store';
import type { PlantStore } from '../plant/store';
import { createTokenIssuer, type TokenIssuer } from '../testing/token-issuer';
import { CREATE_TRACING_CHANNEL, type CreateTraceMessage } from './diagnostics';
import type { PlantRequest } from '../http/request';
import { createPlantService, type PlantService } from './service';

type EventName = keyof TracingChannelSubscribers<CreateTraceMessage>;
interface Event {
  readonly name: EventName;
  /** The message as it was when published: the same object is filled in as the request goes. */
  readonly fields: Record<string, unknown>;
  readonly message: CreateTraceMessage;
}

const channel = tracingChannel<unknown, CreateTraceMessage>(CREATE_TRACING_CHANNEL);
const events: Event[] = [];
const record =
  (name: EventName) =>
  (message: CreateTraceMessage): void => {
    events.push({ name, fields: { ...message }, message });
  };
const subscribers: TracingChannelSubscribers<CreateTraceMessage> = {
  start: record('start'),
  end: record('end'),
  asyncStart: record('asyncStart'),
  asyncEnd: record('asyncEnd'),
  error: record('error'),
};

describe('the plantstore:create tracing channel', () => {
  let idp: TokenIssuer;
  let token: string;

  beforeAll(async () => {
    idp = await createTokenIssuer({ algorithm: 'ES256' });
    token = await idp.sign({ sub: 'gardener-4242', scope: 'plants:write' });
  });
  afterAll(() => idp.close());

  afterEach(() => {
    channel.unsubscribe(subscribers);
    events.length = 0;
  });

  const serviceWith = (store: PlantStore = memoryStore()) =>
    createPlantService({
      logger: false,
      store,
      auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
    });
  const post = (body: string, bearer = token) => ({
    method: 'POST',
    path: '/plants',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body,
  });
  const names = () => events.map((event) => event.name);
  const started = { method: 'POST' };
  const storeMs = expect.any(Number) as number;
  const failingStore = (reason: Error): PlantStore => ({ insert: () => Promise.reject(reason) });
  /** The fields published for a refusal decided once the store has answered. */
  const storeFailure = (status: number, code: string) => ({
    method: 'POST',
    status,
    code,
    storeDurationMs: storeMs,
  });
  /** Handles `request` with the channel watched: a refusal's five events, their fields returned. */
  const tracedRefusal = async (service: PlantService, request: PlantRequest, status: number) => {
    channel.subscribe(subscribers);
    expect((await service.handle(request)).status).toBe(status);
    expect(names()).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    return events.map((event) => event.fields);
  };

  it('publishes start, end, asyncStart and asyncEnd of a create, with outcome created and the store duration', async () => {
    const service = serviceWith();
    channel.subscribe(subscribers);
    const answer = await service.handle(post('{"id": 1, "name": "Monstera deliciosa"}'));
    expect(answer.status).toBe(200);
    expect(names()).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    const settled = { method: 'POST', status: 200, outcome: 'created', storeDurationMs: storeMs };
    expect(events.map((event) => event.fields)).toStrictEqual([started, started, settled, settled]);
    expect(events.every((event) => event.message === events[0]?.message)).toBe(true);
    expect(events[3]?.message.storeDurationMs).toBeGreaterThanOrEqual(0);
  });

  it('publishes a replay of the same plant with outcome replayed', async () => {
    const service = serviceWith();
    await service.handle(post('{"id": 2, "name": "Fern"}'));
    channel.subscribe(subscribers);
    expect((await service.handle(post('{"id": 2, "name": "Fern"}'))).status).toBe(200);
    expect(names()).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(events[3]?.fields).toStrictEqual({
      method: 'POST',
      status: 200,
      outcome: 'replayed',
      storeDurationMs: storeMs,
    });
  });

  it('publishes a conflict as error 409 id_conflict, with the store duration', async () => {
    const service = serviceWith();
    await service.handle(post('{"id": 3, "name": "Fern"}'));
    const fields = await tracedRefusal(service, post('{"id": 3, "name": "Ivy"}'), 409);
    const refused = storeFailure(409, 'id_conflict');
    expect(fields.slice(2)).toStrictEqual([refused, refused, refused]);
  });

  it('publishes a token for another audience as error 401 audience_mismatch, without a store duration', async () => {
    const stranger = await idp.sign({ aud: 'another-api', sub: 'gardener-4242' });
    const request = post('{"id": 4, "name": "Fern"}', stranger);
    const fields = await tracedRefusal(serviceWith(), request, 401);
    expect(fields[2]).toStrictEqual({ method: 'POST', status: 401, code: 'audience_mismatch' });
    expect(fields[4]).toStrictEqual(fields[2]);
  });

  it('publishes a store that is unavailable as error 503 store_unavailable, with its duration', async () => {
    const down = failingStore(new ServiceUnavailableError('store_unavailable', 'Down.'));
    const fields = await tracedRefusal(serviceWith(down), post('{"id": 5, "name": "Fern"}'), 503);
    expect(fields[4]).toStrictEqual(storeFailure(503, 'store_unavailable'));
  });

  it('publishes a store that fails as error 500 store_failed, with its duration', async () => {
    const service = serviceWith(failingStore(new Error('relation "plants" does not exist')));
    const fields = await tracedRefusal(service, post('{"id": 6, "name": "Fern"}'), 500);
    expect(fields[2]).toStrictEqual(storeFailure(500, 'store_failed'));
  });

  it('never publishes the token, its claims or the body', async () => {
    const failing = failingStore(new Error('db said: Secret Ivy'));
    const body = '{"id": 7, "name": "Secret Ivy", "tag": "classified-tag"}';
    channel.subscribe(subscribers);
    await serviceWith().handle(post(body));
    await serviceWith().handle(post(body, `${token}x`));
    await serviceWith(failing).handle(post(body));
    expect(events).toHaveLength(14);
    const [header, claims, signature] = token.split('.');
    for (const { message } of events) {
      const text = JSON.stringify(message);
      for (const secret of [token, header, claims, signature, 'gardener-4242', 'plants:write']) {
        expect(text).not.toContain(secret);
      }
      for (const sent of [body, 'Secret Ivy', 'classified-tag', '"id"', '"name"']) {
        expect(text).not.toContain(sent);
      }
    }
  });

  it("runs the handler and the store inside the subscriber's bound store", async () => {
    const storage = new AsyncLocalStorage<string>();
    let seenByStore: string | undefined;
    const store = memoryStore();
    const service = serviceWith({
      insert: (plant, context) => {
        seenByStore = storage.getStore();
        return store.insert(plant, context);
      },
    });
    channel.start.bindStore(storage, (message) => `span for ${message.method}`);
    try {
      expect((await service.handle(post('{"id": 8, "name": "Fern"}'))).status).toBe(200);
    } finally {
      channel.start.unbindStore(storage);
    }
    expect(seenByStore).toBe('span for POST');
  });

  it('publishes nothing and answers alike once the subscriber is gone', async () => {
    const service = serviceWith();
    channel.subscribe(subscribers);
    channel.unsubscribe(subscribers);
    expect(channel.hasSubscribers).toBe(false);
    const answer = await service.handle(post('{"id": 9, "name": "Fern"}'));
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"name":"Fern"}');
    expect(events).toEqual([]);
  });
});
