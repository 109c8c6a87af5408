import type { InsertResult, PlantStore } from '@plantstore/core';
import { checkKnownOptions } from '@plantstore/core/adapter';
import {
  readyTimeoutOption,
  storedPlant,
  storeGate,
  type EventOutbox,
  type StoreLifecycle,
  type StoreTimeoutOptions,
} from '@plantstore/core/store-kit';
import { mapD1Error } from './d1-errors';
import { d1Outbox } from './d1-outbox';
import { INSERT_EVENT } from './d1-outbox-sql';
import { checkTable, SCHEMA_STATEMENTS, TABLE_INFO } from './d1-schema';
import type { D1DatabaseLike, D1ResultLike } from './d1-types';

/** Options of {@link d1Store}. */
export interface D1StoreOptions extends StoreTimeoutOptions {
  /** The D1 binding (`env.DB`). */
  readonly client: D1DatabaseLike;
}

// The id travels as decimal text both ways and SQLite converts it exactly: CAST(text AS INTEGER)
// reads all 64 bits, and CAST(id AS TEXT) writes them all, where a D1 Number would keep 53. The
// tenant is compared byte for byte (SQLite's BINARY collation).
const INSERT =
  'INSERT INTO plants (tenant, id, name, tag, created_by, client_id, created_at, token_id) ' +
  'VALUES (?1, CAST(?2 AS INTEGER), ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (tenant, id) DO NOTHING';
const SELECT =
  'SELECT CAST(id AS TEXT) AS id, name, tag, tenant, created_by AS createdBy, ' +
  'client_id AS clientId, created_at AS createdAt, token_id AS tokenId ' +
  'FROM plants WHERE tenant = ?1 AND id = CAST(?2 AS INTEGER)';
const CREATED: InsertResult = Object.freeze({ created: true });
const OPTIONS: ReadonlySet<string> = new Set(['client', 'readyTimeout']);

/**
 * A {@link PlantStore} on Cloudflare D1, with its schema step; `ready()` runs `SELECT 1` within
 * `readyTimeout` (default 5 s), and `close()` refuses new inserts (503) and waits for those under way.
 */
export interface D1Store extends Omit<PlantStore, 'ready' | 'close' | 'outbox'>, StoreLifecycle {
  /** The events written with the plants (the service's `events` option), for the relay. */
  readonly outbox: EventOutbox;
  /**
   * Creates the `plants` table and the outbox's if they do not exist (the statements of
   * `schema.sql`), then checks
   * the table it finds. Idempotent. Run it once, or apply `schema.sql` as a D1 migration instead
   * (docs/hosts/cloudflare-workers.md).
   *
   * @throws ServiceUnavailableError (`store_unavailable`) when D1 does not answer
   * @throws Error when the table is of the earlier schema (naming its migration) or another shape
   */
  ensureSchema(): Promise<void>;
}

/**
 * A {@link PlantStore} on Cloudflare D1 (SQLite). `insert` is one D1 batch, which D1 runs as one
 * transaction: `INSERT … ON CONFLICT (tenant, id) DO NOTHING`, then the row under the key; the first
 * tells whether this call created it, the second is the plant stored first, with its audit fields,
 * when it did not. So of concurrent inserts of one key exactly one creates it, and every other
 * reports that plant. With the service's `events` option, the batch inserts the event between the
 * two, into `plants_events`, only when the plant's insert changed a row: a replay or a conflict
 * writes none.
 *
 * Ids stay exact over the whole int64 range: they are stored as SQLite integers and cross the D1
 * API as decimal text (D1 hands integers to JavaScript as Numbers, exact only up to 2^53). A call
 * whose signal has already fired rejects and writes nothing; one aborted under way finishes its
 * batch, whole or not at all (D1 cannot cancel a statement). D1's transient failures (network,
 * overload, reset) reject with `ServiceUnavailableError('store_unavailable')` (503, `Retry-After`),
 * anything else as it is (500).
 *
 * @param options - `client`, the D1 binding (`env.DB`), and optionally `readyTimeout`
 * @returns the store
 * @throws TypeError when `client` is not a D1 database
 * @example
 * ```ts
 * export default {
 *   fetch(request: Request, env: Env) {
 *     plants ??= createPlantService({ store: d1Store({ client: env.DB }), auth: jwtBearer({ … }) });
 *     return plants.fetch(request);
 *   },
 * };
 * ```
 */
export function d1Store(options: D1StoreOptions): D1Store {
  checkKnownOptions('d1Store', options, OPTIONS);
  const db = options.client;
  const candidate = db as Partial<D1DatabaseLike> | null | undefined;
  if (typeof candidate?.prepare !== 'function' || typeof candidate.batch !== 'function') {
    throw new TypeError(
      `d1Store: expected a D1 database binding (env.DB) as client; received ${describe(db)}`,
    );
  }
  const gate = storeGate({
    code: 'store_unavailable',
    what: 'The D1 store',
    readyTimeout: readyTimeoutOption('d1Store', options.readyTimeout),
    mapError: mapD1Error,
  });
  const insert = db.prepare(INSERT);
  const select = db.prepare(SELECT);
  const insertEvent = db.prepare(INSERT_EVENT);
  return {
    // D1 cannot cancel a batch: a call whose signal fired before it is refused by the gate.
    insert: (plant, context) =>
      gate.call(context, async () => {
        const { tenant } = plant;
        const id = plant.id.toString();
        const { event } = context;
        const withEvent =
          event === undefined
            ? []
            : [
                insertEvent.bind(
                  event.id,
                  event.tenant,
                  event.plantId.toString(),
                  event.time.getTime(),
                  event.body,
                ),
              ];
        const results = await db.batch([
          insert.bind(
            tenant,
            id,
            plant.name,
            plant.tag ?? null,
            plant.createdBy ?? null,
            plant.clientId ?? null,
            plant.createdAt.toISOString(),
            plant.tokenId ?? null,
          ),
          ...withEvent,
          select.bind(tenant, id),
        ]);
        if (results[0]?.meta?.changes === 1) return CREATED;
        const existing = storedPlant(results.at(-1)?.results?.[0], plant.id, 'd1Store');
        return { created: false, existing };
      }),
    async ensureSchema() {
      let results: readonly D1ResultLike[];
      try {
        const create = SCHEMA_STATEMENTS.map((statement) => db.prepare(statement));
        results = await db.batch([...create, db.prepare(TABLE_INFO)]);
      } catch (error) {
        throw mapD1Error(error);
      }
      checkTable(results.at(-1)?.results ?? []);
    },
    outbox: d1Outbox(db, gate),
    ready: () => gate.ready(() => db.batch([db.prepare('SELECT 1')])),
    close: () => gate.close(),
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return `an object without prepare() and batch()`;
}
