import { randomUUID } from 'node:crypto';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import type { PendingEvent } from '@plantstore/core/store-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsSink } from '../src/index';

// The real NATS server with JetStream this machine runs (CONTRIBUTING.md), on a stream of this run's own.
const NATS_URL = process.env.NATS_URL ?? '127.0.0.1:4222';
const suffix = randomUUID().slice(0, 8);
const stream = `PLANTSTORE_TEST_${suffix}`;
const subjects = `plantstore-test.${suffix}`;

const eventFor = (plantId: bigint, tenant = ''): PendingEvent => {
  const id = randomUUID();
  const time = new Date('2026-11-29T12:00:00.000Z');
  const body = `{"specversion":"1.0","id":"${id}","source":"/plants","type":"plant.created","subject":"${plantId}","time":"${time.toISOString()}","data":{"id":${plantId},"name":"Fern"}}`;
  return { id, type: 'plant.created', tenant, plantId, time, body, attempts: 0 };
};
const live = (): AbortSignal => new AbortController().signal;

let connection: NatsConnection;
let manager: JetStreamManager;

beforeAll(async () => {
  connection = await connect({ servers: NATS_URL });
  manager = await jetstreamManager(connection);
  await manager.streams.add({
    name: stream,
    subjects: [`${subjects}.>`],
    duplicate_window: 60_000_000_000,
  });
});
afterAll(async () => {
  await manager.streams.delete(stream);
  await connection.close();
});

const stored = async (): Promise<number> => (await manager.streams.info(stream)).state.messages;

describe('natsSink on NATS JetStream', () => {
  it('stores the CloudEvent byte for byte with its id as Nats-Msg-Id, acknowledged before it resolves', async () => {
    const sink = natsSink({
      connection,
      subject: (event) => `${subjects}.created.${event.tenant}`,
    });
    const event = eventFor(9_007_199_254_740_993n, 'acme');
    const before = await stored();

    await sink.send(event, live());

    // Acknowledged means stored: no wait needed before reading it back.
    expect(await stored()).toBe(before + 1);
    const message = await manager.streams.getMessage(stream, {
      last_by_subj: `${subjects}.created.acme`,
    });
    expect(message?.string()).toBe(event.body);
    expect(message?.header.get('Nats-Msg-Id')).toBe(event.id);
    expect(message?.header.get('Content-Type')).toBe('application/cloudevents+json; charset=utf-8');
    await sink.close();
  });

  it('stores an event handed again (the relay retrying after a lost acknowledgement) once', async () => {
    const sink = natsSink({ connection, subject: `${subjects}.created` });
    const event = eventFor(2n);
    const before = await stored();

    await sink.send(event, live());
    await sink.send(event, live());
    await sink.send({ ...event, attempts: 1 }, live());

    expect(await stored()).toBe(before + 1);
    await sink.close();
  });

  it('fails the send when no stream captures the subject', async () => {
    const sink = natsSink({ connection, subject: `plantstore-nostream.${suffix}`, timeout: 2_000 });
    await expect(sink.send(eventFor(3n), live())).rejects.toThrow();
    await sink.close();
  });

  it('fails the send once the connection is closed', async () => {
    const own = await connect({ servers: NATS_URL });
    const sink = natsSink({ connection: own, subject: `${subjects}.created` });
    await sink.send(eventFor(4n), live());
    await own.close();
    await expect(sink.send(eventFor(5n), live())).rejects.toThrow();
    await sink.close();
  });

  it('waits at close() for a send under way, which completes, then refuses sends; an aborted signal sends nothing', async () => {
    const sink = natsSink({ connection, subject: `${subjects}.created` });
    const before = await stored();
    const underWay = sink.send(eventFor(6n), live());
    const closed = sink.close();

    await expect(underWay).resolves.toBeUndefined();
    await closed;
    expect(await stored()).toBe(before + 1);
    await expect(sink.send(eventFor(7n), live())).rejects.toThrow('The NATS sink is closed.');
    const other = natsSink({ connection, subject: `${subjects}.created` });
    await expect(
      other.send(eventFor(8n), AbortSignal.abort(new Error('relay stopped'))),
    ).rejects.toThrow('relay stopped');
    expect(await stored()).toBe(before + 1);
  });

  it('refuses unusable options when it is made, naming them', () => {
    expect(() => natsSink({ subject: 'a' } as never)).toThrow(TypeError);
    expect(() => natsSink({ connection, subject: 'plants.>' })).toThrow(
      /no spaces or wildcards, received "plants.>"/,
    );
    expect(() => natsSink({ connection, subject: 'a', timeout: 0 })).toThrow(
      /`timeout` must be a whole number/,
    );
  });
});
