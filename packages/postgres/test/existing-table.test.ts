import { storeRecord } from '@plantstore/core/testing';
import { PGlite } from '@electric-sql/pglite';
import { Pool } from 'pg';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore, type PostgresClient } from '../src/index';
import { context, databaseUrlFor, uniqueTable } from './services';

// What an existing table of the user's needs, checked by ensureSchema() before the first create:
// on PGlite every rule, on a server the rules again through each client's decoding of the
// catalogue's answer (pg's booleans, postgres.js's raw text), and the database's encoding.

// One PGlite in memory: the catalogue is the same on disk, and each start costs seconds of CPU.
let db: PGlite;
beforeAll(async () => {
  db = new PGlite();
  await db.waitReady;
}, 180_000);
afterAll(() => db.close());

/** Creates `columns` as a new table through `run`, and the store on it through `client`. */
async function storeOnExisting(
  run: (sql: string) => Promise<unknown>,
  client: PostgresClient,
  columns: string,
  extra = '',
) {
  const table = uniqueTable('existing');
  await run(`CREATE TABLE "${table}" (${columns})`);
  if (extra !== '') await run(extra.replaceAll('$table', `"${table}"`));
  return postgresStore({ client, table });
}

const A = "tenant TEXT NOT NULL DEFAULT '', ";
const B = ', client_id TEXT, token_id TEXT';

const refusal = (table: string, problems: string) =>
  new Error(
    `The table "${table}" exists but cannot keep plants exactly: ${problems}. Alter it to the ` +
      'columns of schemaSql() (tenant TEXT, id BIGINT, PRIMARY KEY (tenant, id); name, tag, ' +
      'created_by, client_id and token_id TEXT, all but name nullable; created_at TIMESTAMPTZ) or ' +
      'name another table.',
  );

// Each: what is wrong, the columns, the refusal's problems, a statement run after the CREATE.
const MISFITS: readonly (readonly [string, string, string, string])[] = [
  [
    'an integer id, which ids past 2^31 overflow',
    `${A}id INTEGER, name TEXT NOT NULL, tag TEXT, created_by TEXT${B}, PRIMARY KEY (tenant, id)`,
    'column id is integer, not bigint',
    '',
  ],
  [
    'a key whose only unique index is partial, which ON CONFLICT (tenant, id) cannot use',
    `${A}id BIGINT NOT NULL, name TEXT NOT NULL, tag TEXT, created_by TEXT${B}`,
    '(tenant, id) is not the primary key or unique',
    'CREATE UNIQUE INDEX ON $table (tenant, id) WHERE id > 0',
  ],
  [
    'an id unique on its own, so that one id cannot be in two tenants',
    `${A}id BIGINT PRIMARY KEY, name TEXT NOT NULL, tag TEXT, created_by TEXT${B}`,
    '(tenant, id) is not the primary key or unique',
    '',
  ],
  [
    'text that pads, cuts or refuses a name',
    `${A}id BIGINT, name CHAR(20) NOT NULL, tag VARCHAR(10), created_by NAME${B}, PRIMARY KEY (tenant, id)`,
    'column name is character(20), not text; column tag is character varying(10), not text; ' +
      'column created_by is name, not text',
    '',
  ],
  [
    'a NOT NULL tag, no created_by and a column the store does not write',
    `${A}id BIGINT, name TEXT NOT NULL, tag TEXT NOT NULL, owner TEXT NOT NULL${B}, PRIMARY KEY (tenant, id)`,
    'column tag is NOT NULL, and the store writes NULL when there is none; ' +
      'column created_by is missing; ' +
      'column owner is NOT NULL without a default, and the store omits it',
    '',
  ],
];

describe('postgresStore.ensureSchema() on an existing table (PGlite)', () => {
  const run = (sql: string) => db.exec(sql);

  it.each(MISFITS)(
    'refuses a table with %s, naming each column',
    async (_, columns, problems, extra) => {
      const store = await storeOnExisting(run, db, columns, extra);
      await expect(store.ensureSchema()).rejects.toThrow(
        refusal(store.table.slice(1, -1), problems),
      );
    },
  );

  it('takes a table of another shape that keeps plants: a domain id, unbounded varchar, more columns', async () => {
    await run('CREATE DOMAIN plant_id AS BIGINT');
    const store = await storeOnExisting(
      run,
      db,
      `${A}id plant_id NOT NULL, name VARCHAR NOT NULL, tag VARCHAR, created_by TEXT${B}, ` +
        'created_at TIMESTAMPTZ NOT NULL DEFAULT now(), ' +
        'serial_no INT GENERATED ALWAYS AS IDENTITY, kept BOOLEAN NOT NULL DEFAULT true',
      'CREATE UNIQUE INDEX ON $table (id, tenant) INCLUDE (name)',
    );
    await store.ensureSchema();
    const plant = { id: 2n ** 63n - 1n, name: 'Fern ', tag: '' };
    expect(await store.insert(storeRecord(plant), context())).toEqual({ created: true });
    expect(await store.insert(storeRecord(plant), context())).toMatchObject({
      created: false,
      existing: { ...plant, tenant: '', createdBy: 'conformance', clientId: 'conformance-client' },
    });
  });

  it('refuses a table of the schema before tenants and owners, naming the migration', async () => {
    const store = await storeOnExisting(
      run,
      db,
      'id BIGINT PRIMARY KEY, name TEXT NOT NULL, tag TEXT, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), created_by TEXT',
    );
    await expect(store.ensureSchema()).rejects.toThrow(
      new Error(
        `The table ${store.table} is of the schema before plants kept their tenant and owner (no ` +
          'tenant, client_id, token_id). Run the migration of docs/guides/upgrading.md ("Plants ' +
          'keep their owner and tenant") on it, then start again.',
      ),
    );
  });

  it('checks the table it has just created, and again on the next start-up', async () => {
    const store = postgresStore({ client: db, table: uniqueTable('created') });
    await store.ensureSchema();
    await store.ensureSchema();
  });
});

const databaseUrl = databaseUrlFor('the existing-table checks on a PostgreSQL server');

describe.skipIf(databaseUrl === undefined)(
  'postgresStore.ensureSchema() on an existing table (server)',
  () => {
    let pool: Pool;
    let sql: postgres.Sql;
    const tables: string[] = [];
    const run = async (statement: string) => {
      const created = /^CREATE TABLE "([^"]+)"/.exec(statement)?.[1];
      if (created !== undefined) tables.push(created);
      return pool.query(statement);
    };

    beforeAll(() => {
      pool = new Pool({ connectionString: databaseUrl, max: 2 });
      sql = postgres(databaseUrl ?? '', { max: 2, transform: postgres.camel });
    });

    afterAll(async () => {
      for (const table of tables)
        await pool.query(
          `DROP TABLE IF EXISTS "${table}", "${table}_events", "${table}_events_lease"`,
        );
      await Promise.all([pool.end(), sql.end({ timeout: 5 })]);
    });

    const [, columns, problems] = MISFITS[4] ?? [];
    it.each([
      ['a pg Pool', () => pool],
      ['the postgres client', () => sql],
    ])('refuses a NOT NULL tag and a column it does not write through %s', async (_, client) => {
      const store = await storeOnExisting(run, client(), columns ?? '');
      await expect(store.ensureSchema()).rejects.toThrow(
        refusal(store.table.slice(1, -1), problems ?? ''),
      );
    });

    it.each([
      ['a pg Pool', () => pool],
      ['the postgres client', () => sql],
    ])('takes the table it created through %s', async (_, client) => {
      const table = uniqueTable('created');
      tables.push(table);
      await postgresStore({ client: client(), table }).ensureSchema();
    });

    it('refuses a database whose encoding cannot hold every name', async () => {
      const database = uniqueTable('latin1');
      await pool.query(
        `CREATE DATABASE "${database}" ENCODING 'LATIN1' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'`,
      );
      const url = new URL(databaseUrl ?? '');
      url.pathname = `/${database}`;
      const latin1 = new Pool({ connectionString: url.href, max: 1 });
      try {
        const store = postgresStore({ client: latin1 });
        await expect(store.ensureSchema()).rejects.toThrow(
          refusal('plants', "the database's encoding is LATIN1, not UTF8"),
        );
      } finally {
        await latin1.end();
        await pool.query(`DROP DATABASE "${database}"`);
      }
    });
  },
);
