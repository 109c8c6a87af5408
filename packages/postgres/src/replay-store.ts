import type { ReplayContext, ReplayStore } from '@plantstore/core';
import { checkKnownOptions } from '@plantstore/core/adapter';
import {
  backgroundPrune,
  gatedRemember,
  PRUNE_OPTION_NAMES,
  readyTimeoutOption,
  storeGate,
  type RememberStep,
  type StoreLifecycle,
  type StoreTimeoutOptions,
} from '@plantstore/core/store-kit';
import { NEVER_CANCELLED, raceAbort } from './abortable';
import { classifyClient, type PostgresClient } from './clients';
import { createSchema, sqlStateOf } from './create-schema';
import { mapStoreError } from './map-error';
import { DEFAULT_REPLAY_TABLE, replaySchemaStatements, replayTableNames } from './replay-schema';
import { readyProbe } from './ready-probe';
import { sqlRunner } from './sql-runner';

/** Options of {@link postgresReplayStore}. */
export interface PostgresReplayStoreOptions extends StoreTimeoutOptions {
  /**
   * A `pg` Pool (the choice for servers; the plant store's Pool serves both), a connected `pg`
   * Client, or a PGlite instance. The store uses it and never ends it.
   */
  readonly client: PostgresClient;
  /**
   * The table, optionally schema-qualified (`app.dpop_replay`), at most 52 characters per part.
   * Quoted as given. Default `plantstore_dpop_replay`.
   */
  readonly table?: string | undefined;
  /** Prune expired rows after every this many keys remembered by this instance. Default 1000. */
  readonly pruneEvery?: number | undefined;
  /** The most rows one prune deletes. Default 10000. */
  readonly pruneLimit?: number | undefined;
}

/** A {@link ReplayStore} on PostgreSQL or PGlite, with its schema step and pruning. */
export interface PostgresReplayStore extends Omit<ReplayStore, 'ready' | 'close'>, StoreLifecycle {
  /** The table as the store's SQL names it, quoted: `"plantstore_dpop_replay"`. */
  readonly table: string;
  /**
   * Creates the table and its index if they do not exist (the statements of `replay-schema.sql`).
   * Idempotent, and safe when several instances start at once. The store also runs it by itself
   * when it finds the table missing; call it to create the table at start-up instead.
   *
   * @throws ServiceUnavailableError (`replay_store_unavailable`) when the database cannot be reached
   */
  ensureSchema(): Promise<void>;
  /**
   * Checks the database answers and the table exists (`SELECT … LIMIT 0`), creating the table when
   * it is missing. For readiness probes, within `readyTimeout` (default 5 s); PGlite is awaited
   * until it is ready first.
   *
   * @throws ServiceUnavailableError (`replay_store_unavailable`) when it does not answer
   */
  ready(): Promise<void>;
  /**
   * Deletes up to `pruneLimit` rows that expired at `now`. The store runs it by itself in the
   * background every `pruneEvery` keys; call it from a job of your own if you like.
   *
   * @param now - epoch milliseconds of the service's clock. Default `Date.now()`
   * @returns how many rows it deleted
   */
  prune(now?: number): Promise<number>;
  /**
   * Refuses new calls (503 `replay_store_unavailable`) and waits for the calls and the prune under
   * way, and for the clean-up of aborted ones (at most 10 s); a second call settles with the first.
   * It closes nothing the caller owns.
   */
  close(): Promise<void>;
}

const OPTION_NAMES: ReadonlySet<string> = new Set([
  'client',
  'table',
  'readyTimeout',
  ...PRUNE_OPTION_NAMES,
]);
const UNDEFINED_TABLE = '42P01';

/**
 * A {@link ReplayStore} on PostgreSQL, for DPoP proof replay protection (RFC 9449 §11.1) shared by
 * every instance of the service: a `pg` Pool for servers (the plant store's Pool can serve both),
 * a single `pg` Client, or PGlite for one process. The keys live in a table of their own, created
 * the first time the store finds it missing (or by `ensureSchema()`, or by your migrations with
 * `replay-schema.sql`).
 *
 * `remember` is one atomic statement, `INSERT … ON CONFLICT (key) DO UPDATE SET expires_at = …
 * WHERE expires_at <= now RETURNING 1`: a new key is inserted, an expired one renewed, and a row
 * comes back only then; of concurrent calls with one key, in any number of processes, the primary
 * key lets exactly one through. Expiry is judged by the service's clock (`context.now`), never the
 * database's, and kept as `BIGINT` epoch milliseconds; a key is remembered at least until its
 * `expiresAt` (rounded up to a whole millisecond). Every `pruneEvery` keys, a bounded `DELETE` of
 * expired rows runs in the background, one at a time per instance; the call that starts it does
 * not wait for it.
 *
 * The signal is honoured as the plant store honours it: a call whose signal has fired rejects and
 * sends nothing; on a Pool or Client a running statement is cancelled with a CancelRequest, and on
 * PGlite a statement still waiting for its turn is dropped. A call aborted under way may still have
 * remembered its key. Connection loss, pool exhaustion, server shutdown and server-side time-outs
 * reject with `ServiceUnavailableError('replay_store_unavailable')` (503); anything else as it is.
 *
 * @param options - the client and, optionally, the table and the pruning
 * @returns the store
 * @throws TypeError when an option is not what it must be
 * @example
 * ```ts
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const replayStore = postgresReplayStore({ client: pool });
 * const auth = jwtBearer({ jwksUri, issuer, audience, dpop: dpopBinding({ replayStore }) });
 * ```
 */
export function postgresReplayStore(options: PostgresReplayStoreOptions): PostgresReplayStore {
  checkKnownOptions('postgresReplayStore', options, OPTION_NAMES);
  const tableName = options.table ?? DEFAULT_REPLAY_TABLE;
  const { table } = replayTableNames(tableName);
  const target = classifyClient(options.client, 'postgresReplayStore');
  const runner = sqlRunner(target);

  const rememberSql =
    `INSERT INTO ${table} AS held (key, expires_at) VALUES ($1, $2::bigint) ` +
    'ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at ' +
    'WHERE held.expires_at <= $3::bigint RETURNING 1 AS new';
  // The outer condition is checked again on a row a concurrent call renewed meanwhile, so a prune
  // never deletes a key that is unexpired by the time it gets to it.
  const pruneSql =
    `WITH gone AS (DELETE FROM ${table} WHERE expires_at <= $1::bigint AND key IN ` +
    `(SELECT key FROM ${table} WHERE expires_at <= $1::bigint LIMIT $2::bigint) RETURNING 1) ` +
    'SELECT count(*)::int AS n FROM gone';
  const probeSql = `SELECT 1 FROM ${table} LIMIT 0`;

  const gate = storeGate({
    code: 'replay_store_unavailable',
    what: 'The PostgreSQL replay store',
    readyTimeout: readyTimeoutOption('postgresReplayStore', options.readyTimeout),
    mapError: (error) => mapStoreError(error, 'replay'),
  });
  const pruning = backgroundPrune({
    factory: 'postgresReplayStore',
    table,
    options,
    gate,
    mapError: (error) => mapStoreError(error, 'replay'),
    prune: async (now, limit) => {
      const values = [millis(Math.floor(now)), limit];
      const [row] = await runner.write(pruneSql, values, NEVER_CANCELLED);
      return Number((row as { n?: unknown } | undefined)?.n ?? 0);
    },
  });
  let creating: Promise<void> | undefined;

  // Calls that find the table missing at once share one creation.
  const createOnce = (): Promise<void> => {
    creating ??= createSchema(runner, replaySchemaStatements(tableName)).finally(() => {
      creating = undefined;
    });
    return creating;
  };

  const attempt: RememberStep<ReplayContext> = async (key, expiresAt, { now }, cancelled) => {
    const values = [key, millis(Math.ceil(expiresAt)), millis(Math.floor(now))];
    let rows: readonly unknown[];
    try {
      rows = await runner.write(rememberSql, values, cancelled);
    } catch (error) {
      if (cancelled.aborted || sqlStateOf(error) !== UNDEFINED_TABLE) throw error;
      await raceAbort(createOnce(), cancelled);
      rows = await runner.write(rememberSql, values, cancelled);
    }
    pruning.counted(now);
    return rows.length > 0;
  };

  const ensureSchema = async (): Promise<void> => {
    await createOnce().catch((error: unknown) => {
      throw mapStoreError(error, 'replay');
    });
  };

  const probe = readyProbe(runner, target.kind, probeSql);

  return {
    table,
    remember: gatedRemember(gate, attempt),
    ensureSchema,
    ready: () =>
      gate.ready(async (cancelled) => {
        try {
          await probe(cancelled);
        } catch (error) {
          if (sqlStateOf(error) !== UNDEFINED_TABLE) throw error;
          await createOnce();
        }
      }),
    prune: (now = Date.now()) => gate.call(undefined, () => pruning.prune(now)),
    close: () => gate.close(() => runner.idle()),
  };
}

/** Epoch milliseconds as the decimal text of an int8, refusing what is none. */
function millis(value: number): string {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(
      `postgresReplayStore: times must be epoch milliseconds; received ${String(value)}.`,
    );
  }
  return String(value);
}
