// Issue #50's crash tests on PostgreSQL: under load, the app process, then the database, then (for
// RabbitMQ) the broker is killed and brought back; every create acknowledged with a 200 must have
// its event delivered at least once. Duplicates are counted and the catch-up after each recovery
// is printed. PostgreSQL is a private one (initdb in a temporary folder), so that it can be
// SIGKILLed. A private RabbitMQ cannot be started here (no Erlang runtime of our own), so the
// broker's crash is a TCP proxy in front of the shared one that refuses and resets every
// connection, then lets them back. The Redis case is event-crash-redis.test.ts, run beside this one.
import { randomBytes, randomUUID } from 'node:crypto';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { postgresStore } from '@plantstore/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventAppConfig } from '../../src/events/app-process';
import {
  appKill,
  crashScenario,
  pause,
  serverKill,
  type Fault,
} from '../../src/events/crash-scenario';
import { amqpConsumer, webhookReceiver } from '../../src/events/delivery-log';
import {
  hasPostgresPrograms,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../../src/events/private-postgres';
import { startTcpProxy } from '../../src/faults/tcp-proxy';

const AMQP_URL = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
const canRun = (await hasPostgresPrograms()) || process.env['PLANTSTORE_REQUIRE_SERVICES'] === '1';
if (!canRun) console.warn('Skipping the event crash tests: initdb/postgres are not on the PATH.');

let database: PrivatePostgres;
let issuer: TokenIssuer;

beforeAll(async () => {
  if (!canRun) return;
  [database, issuer] = await Promise.all([startPrivatePostgres(), createTokenIssuer()]);
}, 60_000);
afterAll(async () => {
  await database?.remove();
  await issuer?.close();
});

/** A fresh plants table (and its outbox) on the private server. */
async function freshTable(): Promise<EventAppConfig['store']> {
  const table = `crash_${randomUUID().slice(0, 8)}`;
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  await postgresStore({ client: pool, table }).ensureSchema();
  await pool.end();
  return { kind: 'postgres', url: database.url, table };
}

describe.skipIf(!canRun)(
  'every acknowledged create has its event delivered, through crashes',
  () => {
    it('PostgreSQL + webhook: the app killed, then the database', async () => {
      const receiver = await webhookReceiver();
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      try {
        const report = await crashScenario(
          'PostgreSQL + webhook',
          {
            store: await freshTable(),
            sink: { kind: 'webhook', url: receiver.url, secret },
            issuer,
          },
          receiver,
          (app) => [appKill(app), serverKill('PostgreSQL', database)],
        );
        console.info(report.text);
        expect(report.lost).toEqual([]);
        expect(report.acknowledged).toBeGreaterThan(0);
      } finally {
        await receiver.close();
      }
    }, 90_000);

    it('PostgreSQL + RabbitMQ: the app killed, then the database, then the broker cut off', async () => {
      const exchange = `plantstore-crash-${randomUUID().slice(0, 8)}`;
      const consumer = await amqpConsumer(AMQP_URL, exchange);
      const broker = new URL(AMQP_URL);
      const proxy = await startTcpProxy({ host: broker.hostname, port: Number(broker.port) });
      const url = `amqp://${broker.username}:${broker.password}@127.0.0.1:${proxy.port}`;
      const brokerCut: Fault = {
        name: 'RabbitMQ cut off (every connection refused and reset), back after 1.5 s',
        async inflict() {
          await proxy.setMode('refuse');
          await pause(1_500);
          await proxy.setMode('forward');
        },
      };
      try {
        const report = await crashScenario(
          'PostgreSQL + RabbitMQ',
          { store: await freshTable(), sink: { kind: 'amqp', url, exchange }, issuer },
          consumer,
          (app) => [appKill(app), serverKill('PostgreSQL', database), brokerCut],
        );
        console.info(report.text);
        expect(report.lost).toEqual([]);
        expect(report.acknowledged).toBeGreaterThan(0);
      } finally {
        await consumer.close();
        await proxy.close();
      }
    }, 90_000);
  },
);
