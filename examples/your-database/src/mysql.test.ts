import { serviceUrl } from '@plantstore/core/testing';
import { sql } from 'drizzle-orm';
import type { Knex } from 'knex';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { type Created, createOne } from './create-one.test-support';

const mysqlUrl = serviceUrl(
  { it },
  'MYSQL_URL',
  'the ORM snippets on MySQL',
  'mysql://root@127.0.0.1:3306/test',
);

// Each snippet is imported only here, inside its test: it connects as it is imported, as in an app.
describe.skipIf(mysqlUrl === undefined)('the store on the ORM’s own connection, MySQL', () => {
  it('Drizzle: the store creates a plant on db.$client, and Drizzle reads it', async () => {
    const { db, store } = await import('./drizzle-mysql');
    try {
      const plant = await createOne(store);
      const [rows] = await db.execute(
        sql`SELECT name, tag FROM plants WHERE id = ${plant.id.toString()}`,
      );
      expect(rows).toEqual([seen(plant)]);
    } finally {
      await store.close();
      await db.$client.end();
    }
  });

  it('Kysely: the store creates a plant on the pool of MysqlDialect, and Kysely reads it', async () => {
    const { db, store } = await import('./kysely-mysql');
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
      await db.destroy(); // ends the pool
    }
  });

  it('Knex: the store creates a plant on a connection taken from Knex’s pool, and Knex reads it', async () => {
    const { db, connection, store } = await import('./knex-mysql');
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

  it('TypeORM: the store creates a plant on driver.pool, and TypeORM reads it', async () => {
    const { dataSource, store } = await import('./typeorm-mysql');
    try {
      const plant = await createOne(store);
      const rows: unknown = await dataSource.query('SELECT name, tag FROM plants WHERE id = ?', [
        plant.id.toString(),
      ]);
      expect(rows).toEqual([seen(plant)]);
    } finally {
      await store.close();
      await dataSource.destroy();
    }
  });

  it('Sequelize: the store creates a plant on a connection taken from Sequelize’s pool, and Sequelize reads it', async () => {
    const { connection, sequelize, store } = await import('./sequelize-mysql');
    try {
      const plant = await createOne(store);
      const rows = await sequelize.query('SELECT name, tag FROM plants WHERE id = :id', {
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
});

/** The row as the ORM reads it back: the plant's name and tag, `null` for none. */
function seen(plant: Created): { name: string; tag: string | null } {
  return { name: plant.name, tag: plant.tag ?? null };
}
