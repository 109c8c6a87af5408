import { randomUUID } from 'node:crypto';
import type { Principal } from '@plantstore/core';
import type { OutboxEvent } from '@plantstore/core/store-kit';
import { describeOutboxConformance, storeRecord } from '@plantstore/core/testing';
import mysqlPromise from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mysqlStore, type MysqlClient, type MysqlStore } from '../src/index';
import { databaseOfThisFile, mysqlUrlFor } from './services';

const url = mysqlUrlFor('the MySQL outbox');
const principal: Principal = { subject: 'gardener', scopes: [], claims: {} };
// What the store does with an event's fields is the conformance cases' (byte for byte); here, only
// whether it is written at all.
const eventFor = (plantId: bigint, tenant = ''): OutboxEvent => {
  const id = randomUUID();
  return { id, type: 'plant.created', tenant, plantId, time: new Date(), body: `{"id":"${id}"}` };
};
const create = (store: MysqlStore, id: bigint, event: OutboxEvent | undefined) =>
  store.insert(storeRecord({ id, name: 'Fern' }), {
    principal,
    signal: new AbortController().signal,
    event,
  });

describe.skipIf(url === undefined)('the MySQL outbox on MariaDB', () => {
  const database = databaseOfThisFile(url);
  let connection: mysqlPromise.Connection;
  beforeAll(async () => {
    connection = await mysqlPromise.createConnection({ uri: url ?? '' });
  });
  afterAll(() => connection.end());

  describe.each([
    ['a Pool', () => database.pool as MysqlClient],
    ['a Connection', () => connection as MysqlClient],
  ])('on %s', (name, client) => {
    const fresh = async (): Promise<MysqlStore> => {
      const store = mysqlStore({ client: client(), table: database.newTable('outbox') });
      await store.ensureSchema();
      return store;
    };

    describeOutboxConformance({ describe, it }, `mysqlStore on ${name}`, {
      create: fresh,
      // Another instance of the service: the file's Pool, the same tables.
      createPeer: (store) =>
        mysqlStore({ client: database.pool, table: store.table.replaceAll('`', '') }),
      destroy: (store) => store.close(),
    });
    const rows = async (sql: string) => (await database.pool.query(sql))[0] as unknown[];
    const eventsOf = (store: MysqlStore) => `${store.table.slice(0, -1)}_events\``;

    it('leaves no plant when the event cannot be written', async () => {
      const store = await fresh();
      await rows(
        `ALTER TABLE ${eventsOf(store)} ADD CONSTRAINT refuse_tenant CHECK (tenant <> 'refused')`,
      );
      await expect(
        store.insert(storeRecord({ id: 9n, name: 'Fern' }, { tenant: 'refused' }), {
          principal,
          signal: new AbortController().signal,
          event: eventFor(9n, 'refused'),
        }),
      ).rejects.toThrow(/refuse_tenant/);
      expect(await rows(`SELECT id FROM ${store.table}`)).toEqual([]);
      expect(await rows(`SELECT seq FROM ${eventsOf(store)}`)).toEqual([]);
      // The connection went back clean: the next create commits.
      expect(await create(store, 10n, eventFor(10n))).toEqual({ created: true });
    });

    it('rolls back a create whose event waits past its time-out: neither commits later', async () => {
      const store = await fresh();
      const locker = await database.pool.getConnection();
      const controller = new AbortController();
      try {
        await locker.query(`LOCK TABLES ${eventsOf(store)} WRITE`);
        const pending = store.insert(storeRecord({ id: 11n, name: 'Fern' }), {
          principal,
          signal: controller.signal,
          event: eventFor(11n),
        });
        setTimeout(() => controller.abort(new Error('store time-out')), 300);
        await expect(pending).rejects.toThrow('store time-out');
      } finally {
        await locker.query('UNLOCK TABLES');
        locker.release();
      }
      await store.close();
      expect(await rows(`SELECT id FROM ${store.table}`)).toEqual([]);
      expect(await rows(`SELECT seq FROM ${eventsOf(store)}`)).toEqual([]);
    });

    it('names ensureSchema() when events are on and the outbox table is missing', async () => {
      const store = await fresh();
      await rows(`DROP TABLE ${eventsOf(store)}`);
      await expect(create(store, 4n, eventFor(4n))).rejects.toThrow(
        /the outbox table `.*_events` does not exist\. Events are on: run store\.ensureSchema\(\)/,
      );
      expect(await rows(`SELECT id FROM ${store.table}`)).toEqual([]);
      expect(await create(store, 4n, undefined)).toEqual({ created: true });
    });

    it('refuses at ensureSchema() an events table whose body cannot hold every event', async () => {
      const store = await fresh();
      await rows(`ALTER TABLE ${eventsOf(store)} MODIFY body TEXT CHARACTER SET latin1 NOT NULL`);
      await expect(store.ensureSchema()).rejects.toThrow(/column body is text, not mediumtext/);
    });

    it('refuses the outbox once the store is closed', async () => {
      const store = await fresh();
      await store.close();
      await expect(store.outbox!.due(1, new Date())).rejects.toMatchObject({
        status: 503,
        code: 'store_unavailable',
      });
    });
  });
});
