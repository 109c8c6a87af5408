import { randomUUID } from 'node:crypto';
import type { PendingEvent } from '@plantstore/core/store-kit';
import amqp, { type ChannelModel, type ConsumeMessage } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amqpSink } from '../src/index';

// The real RabbitMQ this machine runs (CONTRIBUTING.md): every exchange and queue is this run's own.
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suffix = randomUUID().slice(0, 8);

const eventFor = (plantId: bigint, tenant = ''): PendingEvent => {
  const id = randomUUID();
  const time = new Date('2026-11-29T12:00:00.000Z');
  const body = JSON.stringify({
    specversion: '1.0',
    id,
    source: '/plants',
    type: 'plant.created',
    subject: String(plantId),
    time: time.toISOString(),
    data: { id: '§' },
  }).replace('"§"', plantId.toString());
  return { id, type: 'plant.created', tenant, plantId, time, body, attempts: 0 };
};
const live = (): AbortSignal => new AbortController().signal;

let publisher: ChannelModel;
let consumer: ChannelModel;

beforeAll(async () => {
  publisher = await amqp.connect(AMQP_URL);
  consumer = await amqp.connect(AMQP_URL);
});
afterAll(async () => {
  await publisher.close();
  await consumer.close();
});

/** A topic exchange and a queue bound to it for `plant.#`, both deleted when the consumer closes. */
async function boundQueue(name: string, queueArguments: Record<string, unknown> = {}) {
  const channel = await consumer.createChannel();
  const exchange = `plantstore-test-${name}-${suffix}`;
  await channel.assertExchange(exchange, 'topic', { durable: false, autoDelete: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, arguments: queueArguments });
  await channel.bindQueue(queue, exchange, 'plant.#');
  const received: ConsumeMessage[] = [];
  await channel.consume(queue, (message) => message && received.push(message), { noAck: true });
  return { channel, exchange, queue, received };
}

const until = async (done: () => boolean): Promise<void> => {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 10_000) throw new Error('nothing arrived within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('amqpSink on RabbitMQ', () => {
  it('delivers the CloudEvent byte for byte, persistent, with its id as messageId, once confirmed', async () => {
    const { exchange, received } = await boundQueue('exact');
    const sink = amqpSink({ connection: publisher, exchange });
    const event = eventFor(9_007_199_254_740_993n);

    await sink.send(event, live());
    await until(() => received.length === 1);

    const [message] = received;
    expect(message?.content.toString('utf8')).toBe(event.body);
    expect(message?.fields.routingKey).toBe('plant.created');
    expect(message?.properties).toMatchObject({
      messageId: event.id,
      deliveryMode: 2,
      contentType: 'application/cloudevents+json; charset=utf-8',
      type: 'plant.created',
      timestamp: Date.parse('2026-11-29T12:00:00.000Z') / 1000,
    });
    expect(JSON.parse(message?.content.toString('utf8') ?? '')).toMatchObject({
      subject: '9007199254740993',
    });
    await sink.close();
  });

  it('routes by the event when routingKey is a function, and publishes on the app’s own confirm channel', async () => {
    const { exchange, received } = await boundQueue('keyed');
    const channel = await publisher.createConfirmChannel();
    const sink = amqpSink({
      channel,
      exchange,
      routingKey: (event) => `plant.created.${event.tenant}`,
    });

    await sink.send(eventFor(1n, 'acme'), live());
    await sink.send(eventFor(2n, 'globex'), live());
    await until(() => received.length === 2);

    expect(received.map((message) => message.fields.routingKey)).toEqual([
      'plant.created.acme',
      'plant.created.globex',
    ]);
    await sink.close();
    // The app's channel is the app's: the sink's close leaves it open.
    await channel.checkExchange(exchange);
    await channel.close();
  });

  it('fails the send when the broker nacks it (a full queue that rejects publishes)', async () => {
    const { exchange, received } = await boundQueue('nack', {
      'x-max-length': 0,
      'x-overflow': 'reject-publish',
    });
    const sink = amqpSink({ connection: publisher, exchange });

    await expect(sink.send(eventFor(3n), live())).rejects.toThrow(/did not confirm event/);
    expect(received).toEqual([]);
    await sink.close();
  });

  it('fails the send of an event no queue is bound for, rather than confirming it dropped', async () => {
    const channel = await consumer.createChannel();
    const exchange = `plantstore-test-unbound-${suffix}`;
    await channel.assertExchange(exchange, 'topic', { durable: false, autoDelete: false });
    const sink = amqpSink({ connection: publisher, exchange });

    await expect(sink.send(eventFor(4n), live())).rejects.toThrow(/no queue is bound for it/);
    await sink.close();
    await channel.deleteExchange(exchange);
  });

  it('fails the send when the broker closes the channel (a missing exchange), then opens a new one', async () => {
    const { exchange, received } = await boundQueue('reopen');
    const missing = amqpSink({
      connection: publisher,
      exchange: `plantstore-test-missing-${suffix}`,
    });
    await expect(missing.send(eventFor(5n), live())).rejects.toThrow(/did not confirm event/);
    await missing.close();

    // The connection survives a channel error: a sink on it still delivers.
    const sink = amqpSink({ connection: publisher, exchange });
    await sink.send(eventFor(6n), live());
    await until(() => received.length === 1);
    await sink.close();
  });

  it('fails the send when the connection is closed, and after that on every send', async () => {
    const { exchange } = await boundQueue('closed');
    const connection = await amqp.connect(AMQP_URL);
    const sink = amqpSink({ connection, exchange });
    await sink.send(eventFor(7n), live());

    await connection.close();
    await expect(sink.send(eventFor(8n), live())).rejects.toThrow();
    await expect(sink.send(eventFor(9n), live())).rejects.toThrow();
    await sink.close();
  });

  it('rejects with the abort’s reason when the relay’s signal fires, and refuses sends after close()', async () => {
    const { exchange } = await boundQueue('abort');
    const sink = amqpSink({ connection: publisher, exchange });
    const aborted = new AbortController();
    aborted.abort(new Error('relay stopped'));
    await expect(sink.send(eventFor(10n), aborted.signal)).rejects.toThrow('relay stopped');

    await sink.close();
    await sink.close();
    await expect(sink.send(eventFor(11n), live())).rejects.toThrow('The AMQP sink is closed.');
  });

  it('refuses unusable options when it is made, naming them', () => {
    expect(() => amqpSink({ exchange: 'x' } as never)).toThrow(TypeError);
    expect(() => amqpSink({ connection: publisher, exchange: 1 } as never)).toThrow(
      /`exchange` must be a string, received number/,
    );
  });
});
