import { randomUUID } from 'node:crypto';
import type { PendingEvent } from '@plantstore/core/store-kit';
import { storeRecord } from '@plantstore/core/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRelay } from '@plantstore/core/events';
import { redisStore, redisStreamSink } from '../src/index';
import { redisUrlFor, SINGLE_CLIENTS, uniquePrefix, type OpenClient } from './services';

const url = redisUrlFor('the Redis Streams sink');
const principal = { subject: 'gardener', scopes: [], claims: {} };

function pending(plantId: bigint): PendingEvent {
  const id = randomUUID();
  const body = JSON.stringify({ specversion: '1.0', id, type: 'plant.created', data: { id: '1' } });
  const time = new Date('2026-01-02T03:04:05.678Z');
  return { id, type: 'plant.created', tenant: 'org-a', plantId, time, body, attempts: 0 };
}

/** What a consumer in a group reads: [entry id, { field: value }] each. */
async function readGroup(reader: Redis, stream: string, group: string) {
  const reply = (await reader.xreadgroup(
    'GROUP',
    group,
    'worker-1',
    'COUNT',
    '10',
    'STREAMS',
    stream,
    '>',
  )) as [string, [string, string[]][]][] | null;
  return (reply?.[0]?.[1] ?? []).map(([entry, flat]) => {
    const fields: Record<string, string> = {};
    for (let at = 0; at + 1 < flat.length; at += 2) fields[flat[at] ?? ''] = flat[at + 1] ?? '';
    return [entry, fields] as const;
  });
}

for (const [name, open] of Object.entries(SINGLE_CLIENTS)) {
  describe.skipIf(url === undefined)(`redisStreamSink through ${name}`, () => {
    let one: OpenClient;
    let reader: Redis;
    const prefix = uniquePrefix('sink');

    beforeAll(async () => {
      one = await open(url ?? '');
      reader = new Redis(url ?? '');
    });
    afterAll(async () => {
      await one.drop(prefix);
      await Promise.all([one.close(), reader.quit()]);
    });

    it('adds each event for a consumer group to read and acknowledge', async () => {
      const stream = `${prefix}events`;
      await reader.xgroup('CREATE', stream, 'indexer', '$', 'MKSTREAM');
      const sink = redisStreamSink({ client: one.client, stream });
      const [a, b] = [pending(12345678901234567n), pending(2n)];
      await sink.send(a, new AbortController().signal);
      await sink.send(b, new AbortController().signal);
      const read = await readGroup(reader, stream, 'indexer');
      expect(read.map(([, fields]) => fields)).toEqual([
        {
          id: a.id,
          type: 'plant.created',
          subject: '12345678901234567',
          tenant: 'org-a',
          time: '2026-01-02T03:04:05.678Z',
          data: a.body,
        },
        expect.objectContaining({ id: b.id, subject: '2', data: b.body }),
      ]);
      await expect(reader.xack(stream, 'indexer', ...read.map(([entry]) => entry))).resolves.toBe(
        2,
      );
      await expect(reader.xpending(stream, 'indexer')).resolves.toEqual([0, null, null, null]);
    });

    it('delivers what a create wrote through the relay, once, for the group to read', async () => {
      const stream = `${prefix}relayed`;
      await reader.xgroup('CREATE', stream, 'billing', '$', 'MKSTREAM');
      const store = redisStore({ client: one.client, prefix: `${prefix}plants:` });
      const event = { ...pending(42n), tenant: '' };
      const context = { principal, signal: new AbortController().signal, event };
      await store.insert(storeRecord({ id: 42n, name: 'Fern' }), context);
      const sink = redisStreamSink({ client: one.client, stream });
      const relay = eventRelay({ outbox: store.outbox, sink, logger: false });
      await expect(relay.drain()).resolves.toMatchObject({ leased: true, delivered: 1 });
      const read = await readGroup(reader, stream, 'billing');
      expect(read.map(([, fields]) => [fields['id'], fields['subject'], fields['data']])).toEqual([
        [event.id, '42', event.body],
      ]);
      await expect(store.outbox.due(10, new Date())).resolves.toEqual([]);
      await relay.stop();
    });

    it('trims the stream to about maxLen entries', async () => {
      const stream = `${prefix}trimmed`;
      const sink = redisStreamSink({ client: one.client, stream, maxLen: 1 });
      for (let at = 0; at < 300; at += 1)
        await sink.send(pending(BigInt(at)), new AbortController().signal);
      // MAXLEN ~ trims whole macro nodes (100 entries by default): fewer than all, never below 1.
      const length = await reader.xlen(stream);
      expect(length).toBeGreaterThanOrEqual(1);
      expect(length).toBeLessThan(300);
    });

    it('rejects an aborted send without adding it, and a bad option at the factory', async () => {
      const stream = `${prefix}aborted`;
      const sink = redisStreamSink({ client: one.client, stream });
      const controller = new AbortController();
      controller.abort(new Error('relay stopping'));
      await expect(sink.send(pending(1n), controller.signal)).rejects.toThrow('relay stopping');
      await expect(reader.xlen(stream)).resolves.toBe(0);
      expect(() => redisStreamSink({ client: one.client, stream: '' })).toThrow(
        'redisStreamSink: option "stream" must be a non-empty string; received a string of 0 characters',
      );
    });
  });
}
