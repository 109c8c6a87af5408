import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore } from '../plant/memory-store';
import { storeRecord } from '../testing/store-context';
import { plantCreatedEvents } from './cloud-event';
import { eventRelay } from './event-relay';
import { DeliveryError, type EventSink } from './event-sink';
import type { PendingEvent } from './outbox';
import { EVENT_CHANNELS } from './relay-channels';
import type { EventRelayOptions } from './relay-options';
import { retryDelay } from './retry-delay';

const eventOf = plantCreatedEvents('/plants');

/** A memory store with `count` created plants and their events; the events' ids in order. */
async function storeWith(count: number) {
  const store = memoryStore();
  const ids: string[] = [];
  for (let index = 1; index <= count; index += 1) {
    const record = storeRecord({ id: BigInt(index), name: `plant ${index}` });
    const event = eventOf(record);
    await store.insert(record, {
      principal: { subject: 's', scopes: [], claims: {} },
      signal: new AbortController().signal,
      event,
    });
    ids.push(event.id);
  }
  return { store, ids };
}

/** A sink that records what it was sent and answers with `answer`. */
function recordingSink(
  answer: (event: PendingEvent, signal: AbortSignal) => Promise<void> = () => Promise.resolve(),
) {
  const sent: PendingEvent[] = [];
  const sink: EventSink = {
    send(event, signal) {
      sent.push(event);
      return answer(event, signal);
    },
  };
  return { sink, sent };
}

const warnings: string[] = [];
const logger = { warn: (message: string) => warnings.push(message) };
const relayOf = (
  options: Partial<EventRelayOptions> & Pick<EventRelayOptions, 'outbox' | 'sink'>,
) => eventRelay({ logger, retryBase: 1, retryCap: 2, pollInterval: 10, ...options });
const later = () => new Date(Date.now() + 3_600_000);
const listeners: [string, (message: unknown) => void][] = [];
const listen = (name: string) => {
  const messages: unknown[] = [];
  const listener = (message: unknown) => messages.push(message);
  subscribe(name, listener);
  listeners.push([name, listener]);
  return messages;
};
afterEach(() => {
  warnings.length = 0;
  for (const [name, listener] of listeners.splice(0)) unsubscribe(name, listener);
});

describe('eventRelay', () => {
  it('delivers every due event once, oldest first, body byte for byte, and publishes its lag', async () => {
    const { store, ids } = await storeWith(3);
    const { sink, sent } = recordingSink();
    const delivered = listen(EVENT_CHANNELS.delivered);
    const relay = relayOf({ outbox: store.outbox, sink, concurrency: 1 });
    const before = await store.outbox.due(10, later());
    expect(await relay.drain()).toEqual({ leased: true, due: 3, delivered: 3, failed: 0, dead: 0 });
    expect(sent.map((event) => event.id)).toEqual(ids);
    expect(sent.map((event) => event.body)).toEqual(before.map((event) => event.body));
    expect(JSON.parse(sent[0]?.body ?? '')).toMatchObject({ id: ids[0], data: { id: 1 } });
    expect(await store.outbox.due(10, later())).toEqual([]);
    expect(delivered).toHaveLength(3);
    expect(delivered[0]).toMatchObject({ id: ids[0], plantId: 1n, tenant: '', attempts: 0 });
    expect((delivered[0] as { lagMs: number }).lagMs).toBeGreaterThanOrEqual(0);
    await relay.stop();
  });

  it('marks an event delivered only once the sink resolved', async () => {
    const { store, ids } = await storeWith(1);
    let confirm = () => {};
    const { sink } = recordingSink(() => new Promise<void>((resolve) => (confirm = resolve)));
    const relay = relayOf({ outbox: store.outbox, sink });
    const round = relay.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await store.outbox.due(10, later())).map((event) => event.id)).toEqual(ids);
    confirm();
    expect(await round).toMatchObject({ delivered: 1 });
    expect(await store.outbox.due(10, later())).toEqual([]);
    await relay.stop();
  });

  it('records a failure with back-off, logs and publishes it, then retries it', async () => {
    const { store, ids } = await storeWith(1);
    let fail = true;
    const { sink, sent } = recordingSink(() =>
      fail ? Promise.reject(new DeliveryError('HTTP 500')) : Promise.resolve(),
    );
    const failed = listen(EVENT_CHANNELS.failed);
    const relay = relayOf({ outbox: store.outbox, sink, retryBase: 60_000, retryCap: 60_000 });
    expect(await relay.runOnce()).toMatchObject({ due: 1, failed: 1, delivered: 0 });
    const [pending] = await store.outbox.due(10, later());
    expect(pending).toMatchObject({
      id: ids[0],
      attempts: 1,
      lastError: 'DeliveryError: HTTP 500',
    });
    expect(await store.outbox.due(10, new Date())).toEqual([]);
    expect(failed[0]).toMatchObject({ id: ids[0], attempts: 1, error: 'DeliveryError: HTTP 500' });
    const retryAt = (failed[0] as { retryAt: Date }).retryAt.getTime() - Date.now();
    expect(retryAt).toBeGreaterThan(25_000);
    expect(retryAt).toBeLessThanOrEqual(60_000);
    expect(warnings[0]).toMatch(
      /^plantstore events: delivery of event .* \(plant 1\) failed, attempt 1: DeliveryError: HTTP 500; retry at /u,
    );
    fail = false;
    await store.outbox.failed(ids[0] ?? '', { attempts: 1, error: 'x', retryAt: new Date() });
    expect(await relay.runOnce()).toMatchObject({ delivered: 1 });
    expect(sent).toHaveLength(2);
    await relay.stop();
  });

  it('makes an event dead after maxAttempts, or at once for a permanent failure; redrive sends it again', async () => {
    const { store, ids } = await storeWith(2);
    let answer: (event: PendingEvent) => Promise<void> = (event) =>
      event.id === ids[0]
        ? Promise.reject(new DeliveryError('HTTP 503'))
        : Promise.reject(new DeliveryError('HTTP 410', { permanent: true }));
    const { sink } = recordingSink((event) => answer(event));
    const dead = listen(EVENT_CHANNELS.dead);
    const relay = relayOf({ outbox: store.outbox, sink, maxAttempts: 2 });
    expect(await relay.runOnce()).toMatchObject({ failed: 1, dead: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await relay.runOnce()).toMatchObject({ failed: 0, dead: 1 });
    expect(
      (await relay.dead()).map((event) => [event.id, event.attempts, event.lastError]),
    ).toEqual([
      [ids[0], 2, 'DeliveryError: HTTP 503'],
      [ids[1], 1, 'DeliveryError: HTTP 410'],
    ]);
    expect(dead).toHaveLength(2);
    expect(warnings.at(-1)).toContain('the event is dead: list it with relay.dead()');
    answer = () => Promise.resolve();
    expect(await relay.redrive()).toBe(2);
    expect(await relay.drain()).toMatchObject({ delivered: 2 });
    expect(await relay.dead()).toEqual([]);
    await relay.stop();
  });

  it('aborts a send past its time-out and counts it failed, even when the sink ignores the signal', async () => {
    const { store } = await storeWith(1);
    let signalOf: AbortSignal | undefined;
    const { sink } = recordingSink((_event, signal) => {
      signalOf = signal;
      return new Promise<void>(() => {});
    });
    const relay = relayOf({ outbox: store.outbox, sink, sendTimeout: 50 });
    expect(await relay.runOnce()).toMatchObject({ failed: 1 });
    expect(signalOf?.aborted).toBe(true);
    expect((await store.outbox.due(1, later()))[0]?.lastError).toBe(
      'DeliveryError: time-out: no confirmation within 50 ms',
    );
    await relay.stop();
  });

  it('keeps at most `concurrency` sends under way', async () => {
    const { store } = await storeWith(20);
    let now = 0;
    let most = 0;
    const { sink } = recordingSink(async () => {
      most = Math.max(most, (now += 1));
      await new Promise((resolve) => setTimeout(resolve, 5));
      now -= 1;
    });
    const relay = relayOf({ outbox: store.outbox, sink, concurrency: 3 });
    expect(await relay.drain()).toMatchObject({ delivered: 20 });
    expect(most).toBe(3);
    await relay.stop();
  });

  it('sends a plant\u2019s later event only after its earlier one is delivered', async () => {
    const { store, ids } = await storeWith(1);
    const record = storeRecord({ id: 1n, name: 'plant 1' });
    const second = eventOf(record);
    store.outbox.append(second);
    const { sink, sent } = recordingSink((event) =>
      event.id === ids[0] ? Promise.reject(new DeliveryError('HTTP 500')) : Promise.resolve(),
    );
    const relay = relayOf({ outbox: store.outbox, sink, retryBase: 60_000, retryCap: 60_000 });
    expect(await relay.runOnce()).toMatchObject({ due: 2, failed: 1, delivered: 0 });
    expect(sent.map((event) => event.id)).toEqual([ids[0]]);
    await relay.stop();
  });

  it('delivers from one relay at a time: the lease holder, until it stops and releases', async () => {
    const { store } = await storeWith(1);
    const first = relayOf({ outbox: store.outbox, sink: recordingSink().sink, holder: 'a' });
    const second = relayOf({ outbox: store.outbox, sink: recordingSink().sink, holder: 'b' });
    expect(await first.runOnce()).toMatchObject({ leased: true, delivered: 1 });
    expect(await second.runOnce()).toEqual({
      leased: false,
      due: 0,
      delivered: 0,
      failed: 0,
      dead: 0,
    });
    await first.stop();
    expect(await second.runOnce()).toMatchObject({ leased: true });
    await second.stop();
  });

  it('never rejects when the outbox or the sink throws: it logs and publishes', async () => {
    const { store } = await storeWith(1);
    const errors = listen(EVENT_CHANNELS.error);
    const broken = { ...store.outbox, due: () => Promise.reject(new Error('connection\nreset')) };
    const relay = relayOf({ outbox: broken, sink: recordingSink().sink });
    expect(await relay.runOnce()).toEqual({
      leased: true,
      due: 0,
      delivered: 0,
      failed: 0,
      dead: 0,
    });
    expect(errors).toEqual([{ operation: 'due', error: 'Error: connection reset' }]);
    expect(warnings).toEqual([
      "plantstore events: the outbox's due failed: Error: connection reset; retrying",
    ]);
    const throwing: EventSink = {
      send() {
        throw new TypeError('sync');
      },
    };
    const other = relayOf({ outbox: store.outbox, sink: throwing, holder: 'other' });
    await relay.stop();
    expect(await other.runOnce()).toMatchObject({ failed: 1 });
    await other.stop();
  });

  it('ends drain() at a round that delivers nothing, even when failures cannot be recorded', async () => {
    const { store } = await storeWith(1);
    const broken = { ...store.outbox, failed: () => Promise.reject(new Error('read-only')) };
    const failing = recordingSink(() => Promise.reject(new DeliveryError('HTTP 500')));
    const relay = relayOf({ outbox: broken, sink: failing.sink });
    expect(await relay.drain()).toEqual({ leased: true, due: 1, delivered: 0, failed: 1, dead: 0 });
    expect(failing.sent).toHaveLength(1);
    expect(warnings.at(-1)).toBe(
      "plantstore events: the outbox's failed failed: Error: read-only; retrying",
    );
    await relay.stop();
  });

  it('runs in the background from start() and stop() waits for the send under way', async () => {
    const { store } = await storeWith(1);
    let finished = false;
    let started!: () => void;
    const sending = new Promise<void>((resolve) => (started = resolve));
    const { sink } = recordingSink(async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 100));
      finished = true;
    });
    const relay = relayOf({ outbox: store.outbox, sink });
    relay.start();
    await sending;
    await relay.stop();
    expect(finished).toBe(true);
    expect(await store.outbox.due(10, later())).toEqual([]);
    expect(await store.outbox.lease('someone-else', 1_000, new Date())).toBe(true);
  });

  it('refuses bad options at once, naming them', () => {
    const { sink } = recordingSink();
    const outbox = memoryStore().outbox;
    expect(() => eventRelay({ outbox, sink, maxAttempt: 3 } as EventRelayOptions)).toThrow(
      'eventRelay: unknown option "maxAttempt" (did you mean "maxAttempts"?)',
    );
    expect(() => eventRelay({ outbox: {} as typeof outbox, sink })).toThrow(
      'eventRelay: option "outbox" must be the outbox of a store that writes events (store.outbox)',
    );
    expect(() => eventRelay({ outbox, sink: {} as EventSink })).toThrow(
      'eventRelay: option "sink" must be an object with a send function',
    );
    expect(() => eventRelay({ outbox, sink, concurrency: 0 })).toThrow('option "concurrency"');
  });
});

describe('retryDelay', () => {
  it('doubles per attempt up to the cap, with half of it drawn at random', () => {
    const backoff = { baseMs: 1_000, capMs: 60_000 };
    expect(retryDelay(1, backoff, () => 0)).toBe(500);
    expect(retryDelay(1, backoff, () => 0.999_999)).toBe(1_000);
    expect(retryDelay(3, backoff, () => 0)).toBe(2_000);
    expect(retryDelay(3, backoff, () => 0.999_999)).toBe(4_000);
    expect(retryDelay(30, backoff, () => 0.999_999)).toBe(60_000);
  });
});
