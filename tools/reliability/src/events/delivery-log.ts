import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import amqp, { type ChannelModel } from 'amqplib';
import { createClient } from 'redis';

/** What a sink's consumer received: each event's plant and id, and when the last one arrived. */
export interface DeliveryLog {
  /** The plants (the events' `subject`) with at least one event delivered. */
  readonly plants: ReadonlySet<string>;
  /** Deliveries in all, duplicates included. */
  readonly deliveries: number;
  /** Deliveries beyond the first of each event id. */
  readonly duplicates: number;
  /** Resolves once every one of `plants` has an event, with the time that took; rejects past `ms`. */
  until(plants: ReadonlySet<string>, ms: number): Promise<number>;
  close(): Promise<void>;
}

/** Records one CloudEvent body; answers the recording log. */
function recorder(): { record: (body: string) => void; log: Omit<DeliveryLog, 'close'> } {
  const plants = new Set<string>();
  const ids = new Set<string>();
  let deliveries = 0;
  return {
    record: (body) => {
      const event = JSON.parse(body) as { id: string; subject: string };
      deliveries += 1;
      ids.add(event.id);
      plants.add(event.subject);
    },
    log: {
      plants,
      get deliveries() {
        return deliveries;
      },
      get duplicates() {
        return deliveries - ids.size;
      },
      until: async (wanted, ms) => {
        const started = performance.now();
        const missing = (): string[] => [...wanted].filter((plant) => !plants.has(plant));
        while (missing().length > 0) {
          if (performance.now() - started > ms) {
            throw new Error(
              `${missing().length} acknowledged creates have no event after ${ms} ms: ${missing().slice(0, 5).join(', ')}`,
            );
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return performance.now() - started;
      },
    },
  };
}

/**
 * A webhook receiver on 127.0.0.1 that records every event posted to it and answers 204.
 *
 * @returns the log and the receiver's URL
 */
export async function webhookReceiver(): Promise<DeliveryLog & { readonly url: string }> {
  const { record, log } = recorder();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      record(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(log, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/**
 * A consumer of a queue bound to `exchange` on RabbitMQ (a topic exchange it declares), recording
 * every event it receives.
 *
 * @param url - the broker, reached directly (not through the scenario's proxy)
 * @param exchange - the exchange the app's sink publishes to
 * @returns the log
 */
export async function amqpConsumer(url: string, exchange: string): Promise<DeliveryLog> {
  const { record, log } = recorder();
  const connection: ChannelModel = await amqp.connect(url);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: false, autoDelete: true });
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, exchange, '#');
  await channel.consume(queue, (message) => message && record(message.content.toString('utf8')), {
    noAck: true,
  });
  return Object.assign(log, { close: () => connection.close() });
}

/** An `XREAD` reply's stream, as node-redis hands it (RESP2). */
interface StreamReply {
  readonly messages: readonly { readonly id: string; readonly message: Record<string, string> }[];
}

/**
 * A reader of a Redis stream (`XREAD`, from the start), recording every entry's event; it reads on
 * across a restart of its server.
 *
 * @param url - the Redis server
 * @param stream - the stream the app's sink adds to
 * @returns the log
 */
export async function redisStreamReader(url: string, stream: string): Promise<DeliveryLog> {
  const { record, log } = recorder();
  const client = createClient({ url, socket: { reconnectStrategy: () => 100 } });
  client.on('error', () => undefined);
  await client.connect();
  let reading = true;
  let last = '0-0';
  const loop = (async () => {
    while (reading) {
      const answer = await client
        .xRead({ key: stream, id: last }, { COUNT: 500 })
        .catch(() => null);
      const entries = Array.isArray(answer)
        ? ((answer[0] as StreamReply | undefined)?.messages ?? [])
        : [];
      for (const { id, message } of entries) {
        last = id;
        record(message['data'] ?? '{}');
      }
      if (entries.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return Object.assign(log, {
    close: async () => {
      reading = false;
      await loop;
      await client.close();
    },
  });
}
