// `pnpm --filter @plantstore/bench relay`: how many events per second the relay moves from an outbox
// to each sink (issue #50): a webhook on 127.0.0.1, RabbitMQ (publisher confirms), NATS JetStream
// (acknowledged publishes) and Redis Streams (XADD), from the memory outbox (the relay and the sink alone)
// and from the PostgreSQL outbox (its reads and deletes too). One short run, printed as a table;
// `--write` (or RELAY_WRITE=1) puts it in docs/reference/performance.md. Settings: RELAY_EVENTS
// (events per run, default 1000); DATABASE_URL, AMQP_URL, NATS_URL, REDIS_URL name the servers.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import process from 'node:process';
import console from 'node:console';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { amqpSink } from '@plantstore/amqp';
import { memoryStore } from '@plantstore/core';
import { eventRelay, webhookSink } from '@plantstore/core/events';
import { natsSink } from '@plantstore/nats';
import { postgresStore } from '@plantstore/postgres';
import { redisStreamSink } from '@plantstore/redis';
import amqp from 'amqplib';
import pg from 'pg';
import { createClient } from 'redis';
import { withKeptSection } from './lib/kept-section.mjs';
import { machineLine, runDate } from './lib/run-info.mjs';
import { table } from './lib/table.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const EVENTS = Number(process.env.RELAY_EVENTS ?? 1000);
const WRITE = process.argv.includes('--write') || process.env.RELAY_WRITE === '1';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const NATS_URL = process.env.NATS_URL ?? '127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUN = randomUUID().slice(0, 8);
const principal = { subject: 'bench', scopes: [], claims: {} };

/** A `plant.created` event as the core builds it, for plant `id`. */
function eventFor(id) {
  const eventId = randomUUID();
  const time = new Date();
  const body = `{"specversion":"1.0","id":"${eventId}","source":"/plants","type":"plant.created","subject":"${id}","time":"${time.toISOString()}","datacontenttype":"application/json","data":{"id":${id},"name":"plant ${id}"}}`;
  return { id: eventId, type: 'plant.created', tenant: '', plantId: id, time, body };
}
const recordFor = (id) => ({
  id,
  name: `plant ${id}`,
  tenant: '',
  createdBy: 'bench',
  clientId: 'bench',
  createdAt: new Date(),
  tokenId: undefined,
});

/** The outboxes, each filled with EVENTS events before a run; `close` drops what it made. */
async function memoryOutbox() {
  const store = memoryStore();
  for (let id = 1n; id <= BigInt(EVENTS); id += 1n) store.outbox.append(eventFor(id));
  return { outbox: store.outbox, close: async () => {} };
}
async function postgresOutbox() {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
  const table = `bench_relay_${RUN}_${Math.floor(Math.random() * 1e6)}`;
  const store = postgresStore({ client: pool, table });
  await store.ensureSchema();
  const signal = new AbortController().signal;
  // Filled 10 creates at a time, as a loaded app would write them.
  for (let first = 1; first <= EVENTS; first += 10) {
    const ids = Array.from({ length: Math.min(10, EVENTS - first + 1) }, (_, i) =>
      BigInt(first + i),
    );
    await Promise.all(
      ids.map((id) => store.insert(recordFor(id), { principal, signal, event: eventFor(id) })),
    );
  }
  return {
    outbox: store.outbox,
    async close() {
      await pool.query(`DROP TABLE IF EXISTS ${table}, ${table}_events, ${table}_events_lease`);
      await pool.end();
    },
  };
}

/** The sinks, each with the receiving end a user would run; `close` removes what it made. */
async function webhook() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/events`;
  const secret = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
  return {
    sink: webhookSink({ url, secret }),
    close: () => new Promise((done) => server.close(done)),
  };
}
async function rabbit() {
  const connection = await amqp.connect(AMQP_URL);
  const admin = await connection.createChannel();
  const exchange = `plantstore-bench-${RUN}`;
  await admin.assertExchange(exchange, 'topic', { durable: false });
  const { queue } = await admin.assertQueue('', { exclusive: true });
  await admin.bindQueue(queue, exchange, '#');
  await admin.consume(queue, () => {}, { noAck: true });
  const sink = amqpSink({ connection, exchange });
  return {
    sink,
    async close() {
      await sink.close();
      await admin.deleteExchange(exchange);
      await connection.close();
    },
  };
}
async function nats() {
  const connection = await natsConnect({ servers: NATS_URL });
  const manager = await jetstreamManager(connection);
  const stream = `PLANTSTORE_BENCH_${RUN}`;
  await manager.streams.add({ name: stream, subjects: [`plantstore-bench.${RUN}`] });
  const sink = natsSink({ connection, subject: `plantstore-bench.${RUN}` });
  return {
    sink,
    async close() {
      await sink.close();
      await manager.streams.delete(stream);
      await connection.close();
    },
  };
}

async function redisStreams() {
  const client = await createClient({ url: REDIS_URL }).connect();
  const stream = `plantstore-bench:${RUN}`;
  return {
    sink: redisStreamSink({ client, stream }),
    async close() {
      await client.del(stream);
      await client.close();
    },
  };
}

const SINKS = [
  ['webhook on 127.0.0.1 (`webhookSink`)', webhook],
  ['RabbitMQ (`amqpSink`, publisher confirms)', rabbit],
  ['NATS JetStream (`natsSink`, acknowledged publishes)', nats],
  ['Redis Streams (`redisStreamSink`, one XADD each)', redisStreams],
];
const OUTBOXES = [
  ['memory', memoryOutbox],
  ['PostgreSQL', postgresOutbox],
];

/** Events per second from a filled outbox to the sink: the relay's `drain()`, timed. */
async function measure(makeOutbox, makeSink) {
  const [{ outbox, close: closeOutbox }, { sink, close: closeSink }] = await Promise.all([
    makeOutbox(),
    makeSink(),
  ]);
  try {
    const relay = eventRelay({ outbox, sink, logger: false });
    const started = performance.now();
    const delivered = await relay.drain();
    const seconds = (performance.now() - started) / 1000;
    await relay.stop();
    if ((await outbox.due(1, new Date(Date.now() + 3_600_000))).length > 0) {
      throw new Error('events were left in the outbox');
    }
    return { perSecond: EVENTS / seconds, delivered };
  } finally {
    await closeSink();
    await closeOutbox();
  }
}

const rows = [];
for (const [sinkName, makeSink] of SINKS) {
  const row = [sinkName];
  for (const [, makeOutbox] of OUTBOXES) {
    const { perSecond } = await measure(makeOutbox, makeSink);
    row.push(String(Math.round(perSecond)));
  }
  rows.push(row);
  console.log(row.join(' | '));
}
const figures = table(
  ['sink', ...OUTBOXES.map(([name]) => `from the ${name} outbox, events/s`)],
  rows,
  ['l', ...OUTBOXES.map(() => 'r')],
);
console.log(`\n${figures}`);

if (WRITE) {
  const page = join(ROOT, 'docs', 'reference', 'performance.md');
  const section = [
    '## Event relay',
    '',
    `_Written by \`pnpm --filter @plantstore/bench relay --write\` on ${runDate()} (${machineLine()} at the end). \`pnpm bench\` keeps this section as it is._`,
    '',
    `Events per second the relay (\`eventRelay\`, its defaults: batches of 100, 8 sends at once) moves from an`,
    `outbox holding ${EVENTS} events to each sink, until none is due (\`drain()\`): from the memory outbox (the relay`,
    'and the sink alone) and from the PostgreSQL outbox (its reads and deletes too). Each sink waits for its',
    "receiver's confirmation before the event counts as delivered; the servers are the shared ones on 127.0.0.1.",
    'One run, each sink fed from the memory outbox first: that column carries the warm-up (first connections,',
    'cold code), so it reads lower. On a busy machine a figure is a floor, not a ranking of the sinks.',
    '',
    figures,
  ].join('\n');
  writeFileSync(page, withKeptSection(readFileSync(page, 'utf8'), section, 'relay'));
  console.log(`Wrote the "Event relay" section of ${page}.`);
}
