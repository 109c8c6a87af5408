// The app process of the event crash scenarios: the plant route on node:http with a PostgreSQL or
// Redis store whose outbox takes each plant's event with the plant (one transaction, one script),
// and the relay in the same process delivering to the scenario's sink. Started (and SIGKILLed) by startEventApp(); it tells the
// parent its port over IPC.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { amqpSink } from '@plantstore/amqp';
import { createNodeHandler, createPlantService, jwtBearer } from '@plantstore/core';
import { eventRelay, webhookSink, type EventSink } from '@plantstore/core/events';
import { postgresStore } from '@plantstore/postgres';
import { redisStore, redisStreamSink } from '@plantstore/redis';
import amqp from 'amqplib';
import pg from 'pg';
import { createClient } from 'redis';
import type { EventAppConfig } from './app-process';

/** A node-redis client that reconnects quickly after its server restarts. */
async function redisClient(url: string) {
  const client = createClient({ url, socket: { reconnectStrategy: () => 100 } });
  client.on('error', () => undefined);
  return client.connect();
}

async function sinkFor(config: EventAppConfig['sink']): Promise<EventSink> {
  if (config.kind === 'webhook') return webhookSink({ url: config.url, secret: config.secret });
  if (config.kind === 'redis-stream') {
    return redisStreamSink({ client: await redisClient(config.url), stream: config.stream });
  }
  // A connection that reconnects by itself: the sink opens a new channel on it after a cut.
  const connection = await amqp.connect(config.url, {
    recovery: { initialDelay: 100, maxDelay: 500 },
  });
  connection.on('error', () => undefined);
  return amqpSink({ connection, exchange: config.exchange });
}

async function storeFor(config: EventAppConfig['store']) {
  if (config.kind === 'redis') {
    return redisStore({ client: await redisClient(config.url), prefix: config.prefix });
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 8,
    connectionTimeoutMillis: 1_000,
  });
  pool.on('error', () => undefined);
  return postgresStore({ client: pool, table: config.table });
}

async function main(config: EventAppConfig): Promise<void> {
  const store = await storeFor(config.store);
  const service = createPlantService({
    store,
    events: true,
    auth: jwtBearer({ jwksUri: config.jwksUri, issuer: config.issuer, audience: config.audience }),
    logger: false,
  });
  const { outbox } = store;
  if (outbox === undefined) throw new Error('the store has no outbox');
  const relay = eventRelay({
    outbox,
    sink: await sinkFor(config.sink),
    pollInterval: 50,
    retryBase: 100,
    retryCap: 1_000,
    sendTimeout: 3_000,
    leaseTime: 1_500,
    maxAttempts: 1_000,
    logger: false,
  });
  const server = createServer(createNodeHandler(service)).listen(0, '127.0.0.1');
  server.once('listening', () => {
    relay.start();
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
}

main(JSON.parse(process.env['EVENT_APP_CONFIG'] ?? '{}') as EventAppConfig).catch(
  (error: unknown) => {
    process.send?.({ failed: String(error) });
    process.exit(1);
  },
);
