import { serviceUrl } from '@plantstore/core/testing';
import { sql } from 'drizzle-orm';
import type { Knex } from 'knex';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { type Created, createOne } from './create-one.test-support';

const databaseUrl = serviceUrl(
  { it },
  'DATABASE_URL',
  'the ORM snippets on PostgreSQL',
  'postgres://postgres@127.0.0.1:5432/test',
);

// Each snippet is imported only here, inside its test: it connects as it is imported, as in an app.
describe.skipIf(databaseUrl === undefined)(
  'the store on the ORM’s own connection, PostgreSQL',
  () => {
    it('Drizzle on a pg Pool: the store creates a plant on db.$client, and Drizzle reads it', async () => {
      const { db, store } = await import('./drizzle-postgres');
      try {
        const plant = await createOne(store);
        const { rows } = await db.execute(
          sql`SELECT name, tag FROM plants WHERE id = ${plant.id.toString()}`,
        );
        expect(rows).toEqual([seen(plant)]);
      } finally {
        await store.close();
        await db.$client.end();
      }
    });

    it('Drizzle on the postgres client: the store creates a plant on db.$client, and Drizzle reads it', async () => {
      const { db, store } = await import('./drizzle-postgres-js');
      try {
        const plant = await createOne(store);
        const rows = await db.execute(
          sql`SELECT name, tag FROM plants WHERE id = ${plant.id.toString()}`,
        );
        expect([...rows]).toEqual([seen(plant)]);
      } finally {
        await store.close();
        await db.$client.end();
      }
    });

    it('Kysely: the store creates a plant on the Pool of PostgresDialect, and Kysely reads it', async () => {
      const { db, store } = await import('./kysely-postgres');
      try {
        const plant = await createOne(store);
        const rows = await db
          .selectFrom('plants')
          .select(['name', 'tag'])
          .where('id', '=', plant.id.toString())
          .execute();
        expect(rows).toEqual([seen(plant)]);
      } finally {
        await store.close();
        await db.destroy(); // ends the Pool
      }
    });

    it('Knex: the store creates a plant on a connection taken from Knex’s pool, and Knex reads it', async () => {
      const { db, connection, store } = await import('./knex-postgres');
      try {
        const plant = await createOne(store);
        const rows: unknown = await db('plants')
          .select('name', 'tag')
          .where('id', plant.id.toString());
        expect(rows).toEqual([seen(plant)]);
      } finally {
        await store.close();
        await (db.client as Knex.Client).releaseConnection(connection);
        await db.destroy();
      }
    });

    it('Prisma 7: the store creates a plant on the Pool of PrismaPg, and the adapter reads it', async () => {
      const { adapter, pool, store } = await import('./prisma-postgres');
      const connected = await adapter.connect();
      try {
        const plant = await createOne(store);
        const result = await connected.queryRaw({
          sql: 'SELECT name, tag FROM plants WHERE id = $1::bigint',
          args: [plant.id.toString()],
          argTypes: [{ scalarType: 'string', arity: 'scalar' }],
        });
        expect(result.columnNames).toEqual(['name', 'tag']);
        expect(result.rows).toEqual([[plant.name, plant.tag ?? null]]);
      } finally {
        await store.close();
        await connected.dispose();
        await pool.end();
      }
    });

    it('TypeORM: the store creates a plant on driver.master, and TypeORM reads it', async () => {
      const { dataSource, store } = await import('./typeorm-postgres');
      try {
        const plant = await createOne(store);
        const rows: unknown = await dataSource.query(
          'SELECT name, tag FROM plants WHERE id = $1::bigint',
          [plant.id.toString()],
        );
        expect(rows).toEqual([seen(plant)]);
      } finally {
        await store.close();
        await dataSource.destroy();
      }
    });

    it('Sequelize: the store creates a plant on a connection taken from Sequelize’s pool, and Sequelize reads it', async () => {
      const { connection, sequelize, store } = await import('./sequelize-postgres');
      try {
        const plant = await createOne(store);
        const rows = await sequelize.query('SELECT name, tag FROM plants WHERE id = :id::bigint', {
          replacements: { id: plant.id.toString() },
          type: QueryTypes.SELECT,
        });
        expect(rows).toEqual([seen(plant)]);
      } finally {
        await store.close();
        sequelize.connectionManager.releaseConnection(connection);
        await sequelize.close();
      }
    });
  },
);

/** The row as the ORM reads it back: the plant's name and tag, `null` for none. */
function seen(plant: Created): { name: string; tag: string | null } {
  return { name: plant.name, tag: plant.tag ?? null };
}
