import { randomUUID } from 'node:crypto';
import type { StoreContext } from '@plantstore/core';
import type { OutboxEvent } from '@plantstore/core/store-kit';
import { storeRecord } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore, type RedisStore } from '../src/index';
import { redisUrlFor, SINGLE_CLIENTS, uniquePrefix, type OpenClient } from './services';

const url = redisUrlFor('the Redis outbox');
const T0 = new Date('2026-01-02T03:04:05.678Z');

/** The event the core would hand the store with plant `id`. */
function eventOf(id: bigint, tenant = ''): OutboxEvent {
  const eventId = randomUUID();
  const body = JSON.stringify({ specversion: '1.0', id: eventId, type: 'plant.created', data: {} });
  return { id: eventId, type: 'plant.created', tenant, plantId: id, time: T0, body };
}
const principal = { subject: 'gardener', scopes: [], claims: {} };
const withEvent = (event: OutboxEvent): StoreContext => ({
  principal,
  signal: new AbortController().signal,
  event,
});

for (const [name, open] of Object.entries(SINGLE_CLIENTS)) {
  describe.skipIf(url === undefined)(`the Redis outbox through ${name}`, () => {
    let one: OpenClient;
    const used: string[] = [];
    const fresh = (): RedisStore => {
      const prefix = uniquePrefix('outbox');
      used.push(prefix);
      return redisStore({ client: one.client, prefix });
    };
    const create = (store: RedisStore, id: bigint, event: OutboxEvent, name = 'Fern') =>
      store.insert(storeRecord({ id, name }, { tenant: event.tenant }), withEvent(event));

    beforeAll(async () => {
      one = await open(url ?? '');
    });
    afterAll(async () => {
      for (const prefix of used) await one.drop(prefix);
      await one.close();
    });

    it('writes the event with the plant, and none on a replay or a conflict', async () => {
      const store = fresh();
      const first = eventOf(7n, 'org-a');
      await expect(create(store, 7n, first)).resolves.toEqual({ created: true });
      await expect(create(store, 7n, eventOf(7n, 'org-a'))).resolves.toMatchObject({
        created: false,
      });
      await expect(create(store, 7n, eventOf(7n, 'org-a'), 'Moss')).resolves.toMatchObject({
        created: false,
      });
      const due = await store.outbox.due(10, new Date());
      expect(due).toEqual([{ ...first, attempts: 0, lastError: undefined }]);
      await store.outbox.delivered([first.id]);
      await expect(store.outbox.due(10, new Date())).resolves.toEqual([]);
    });

    it('hands the due events out oldest first across the buckets, up to the limit', async () => {
      const store = fresh();
      const events = Array.from({ length: 40 }, (_, at) => eventOf(BigInt(at + 1)));
      for (const [at, event] of events.entries()) await create(store, BigInt(at + 1), event);
      const ids = events.map((event) => event.id);
      await expect(
        store.outbox.due(40, new Date()).then((d) => d.map((e) => e.id)),
      ).resolves.toEqual(ids);
      await expect(
        store.outbox.due(5, new Date()).then((d) => d.map((e) => e.id)),
      ).resolves.toEqual(ids.slice(0, 5));
      // Settled by another instance (no hint of the buckets): found in every bucket.
      const peer = redisStore({ client: one.client, prefix: used.at(-1) });
      await peer.outbox.delivered(ids.slice(0, 35));
      const left = await store.outbox.due(40, new Date());
      expect(left.map((event) => event.id)).toEqual(ids.slice(35));
    });

    it('retries a failed event at its time, then keeps it dead until it is redriven', async () => {
      const store = fresh();
      const event = eventOf(9n);
      await create(store, 9n, event);
      const now = new Date();
      const later = new Date(now.getTime() + 60_000);
      await store.outbox.failed(event.id, { attempts: 1, error: 'HTTP 502', retryAt: later });
      await expect(store.outbox.due(10, now)).resolves.toEqual([]);
      await expect(store.outbox.due(10, later)).resolves.toEqual([
        { ...event, attempts: 1, lastError: 'HTTP 502' },
      ]);
      await store.outbox.failed(event.id, { attempts: 2, error: 'timeout', retryAt: undefined });
      await expect(store.outbox.due(10, later)).resolves.toEqual([]);
      const dead = { ...event, attempts: 2, lastError: 'timeout' };
      await expect(store.outbox.dead(10)).resolves.toEqual([dead]);
      await expect(store.outbox.redrive(['not-an-event'])).resolves.toBe(0);
      await expect(store.outbox.redrive()).resolves.toBe(1);
      await expect(store.outbox.dead(10)).resolves.toEqual([]);
      await expect(store.outbox.due(10, now)).resolves.toEqual([
        { ...event, attempts: 0, lastError: undefined },
      ]);
    });

    it('refuses outbox calls after close() with 503', async () => {
      const store = fresh();
      await store.close();
      await expect(store.outbox.due(1, new Date())).rejects.toMatchObject({
        status: 503,
        code: 'store_unavailable',
      });
    });
  });
}
