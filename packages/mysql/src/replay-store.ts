import type { ReplayContext, ReplayStore } from '@plantstore/core';
import { checkKnownOptions } from '@plantstore/core/adapter';
import {
  backgroundPrune,
  gatedRemember,
  PRUNE_OPTION_NAMES,
  readyTimeoutOption,
  storeGate,
  type PruneOptions,
  type RememberStep,
  type StoreTimeoutOptions,
} from '@plantstore/core/store-kit';
import { classifyClient, type MysqlClient } from './clients';
import { errnoOf, mapStoreError } from './map-error';
import { DEFAULT_REPLAY_TABLE, replaySchemaSql } from './replay-schema';
import { binaryLiteral } from './sql-text';
import { statementRunner } from './statement-runner';
import type { MysqlStoreBase } from './store-base';
import { tableName } from './table-name';

/**
 * Options of {@link mysqlReplayStore}: `client` as for `mysqlStore` (the plant store's Pool serves
 * both), `table` (default `plantstore_dpop_replay`), and the pruning of expired rows: after every
 * `pruneEvery` keys this instance remembers (default 1000), at most `pruneLimit` rows (default 10000).
 */
export type MysqlReplayStoreOptions = StoreTimeoutOptions &
  PruneOptions &
  Readonly<{
    client: MysqlClient;
    table?: string | undefined;
  }>;

/** A {@link ReplayStore} on MySQL or MariaDB; it creates its table by itself when it is missing. */
export interface MysqlReplayStore extends Omit<ReplayStore, 'ready' | 'close'>, MysqlStoreBase {
  /**
   * Deletes up to `pruneLimit` rows expired at `now`; the store runs it by itself every `pruneEvery` keys.
   *
   * @param now - epoch milliseconds of the service's clock. Default `Date.now()`
   * @returns how many rows it deleted
   */
  prune(now?: number): Promise<number>;
}

const OPTIONS: ReadonlySet<string> = new Set([
  'client',
  'table',
  'readyTimeout',
  ...PRUNE_OPTION_NAMES,
]);
const ER_DUP_ENTRY = 1062;
const ER_NO_SUCH_TABLE = 1146;

/**
 * A {@link ReplayStore} on MySQL or MariaDB, for DPoP proof replay protection (RFC 9449 §11.1) shared
 * by every instance of the service. `remember` is an `INSERT` of the key; when the key is held
 * already, an `UPDATE … WHERE expires_at <= now` renews it only if it has expired, and the server's
 * count of matched rows (read from the statement's info, the same whatever `CLIENT_FOUND_ROWS`
 * says) tells which. The row lock lets exactly one of concurrent calls through. Expiry is judged by
 * `context.now`, never the database's clock. Aborts, outages and pruning behave as in `mysqlStore`.
 *
 * @param options - the client and, optionally, the table and the pruning
 * @returns the store
 * @throws TypeError when an option is not what it must be
 * @example
 * ```ts
 * const replayStore = mysqlReplayStore({ client: pool });
 * const auth = jwtBearer({ jwksUri, issuer, audience, dpop: dpopBinding({ replayStore }) });
 * ```
 */
export function mysqlReplayStore(options: MysqlReplayStoreOptions): MysqlReplayStore {
  checkKnownOptions('mysqlReplayStore', options, OPTIONS);
  const tableOption = options.table ?? DEFAULT_REPLAY_TABLE;
  const table = tableName(tableOption, 'mysqlReplayStore').quoted;
  const runner = statementRunner(classifyClient(options.client, 'mysqlReplayStore'));
  const replayError = (error: unknown): Error => mapStoreError(error, 'replay');
  const gate = storeGate({
    code: 'replay_store_unavailable',
    what: 'The MySQL replay store',
    readyTimeout: readyTimeoutOption('mysqlReplayStore', options.readyTimeout),
    mapError: replayError,
  });

  const pruning = backgroundPrune({
    factory: 'mysqlReplayStore',
    table,
    options,
    gate,
    mapError: replayError,
    prune: async (now, limit) => {
      const done = await runner.run(
        `DELETE FROM ${table} WHERE expires_at <= ${millis(Math.floor(now))} LIMIT ${limit}`,
      );
      return Number((done as { affectedRows?: unknown }).affectedRows ?? 0);
    },
  });
  let creating: Promise<unknown> | undefined;

  // Calls that find the table missing at once share one creation.
  const createOnce = (): Promise<unknown> => {
    creating ??= runner.run(replaySchemaSql(tableOption)).finally(() => {
      creating = undefined;
    });
    return creating;
  };

  const insertOrRenew: RememberStep<ReplayContext> = async (key, expiresAt, context, cancelled) => {
    const held = binaryLiteral(key);
    const until = millis(Math.ceil(expiresAt));
    const inserted = await runner
      .run(`INSERT INTO ${table} (proof_key, expires_at) VALUES (${held}, ${until})`, cancelled)
      .then(
        () => true,
        (error: unknown) => {
          if (errnoOf(error) === ER_DUP_ENTRY) return false;
          throw error;
        },
      );
    if (inserted) return true;
    const now = millis(Math.floor(context.now));
    const renewed = await runner.run(
      `UPDATE ${table} SET expires_at = ${until} WHERE proof_key = ${held} AND expires_at <= ${now}`,
      cancelled,
    );
    return matchedRows(renewed) > 0;
  };

  const remember: RememberStep<ReplayContext> = async (key, expiresAt, context, cancelled) => {
    const fresh = await insertOrRenew(key, expiresAt, context, cancelled).catch(
      async (error: unknown) => {
        if (cancelled.aborted || errnoOf(error) !== ER_NO_SUCH_TABLE) throw error;
        await createOnce();
        return insertOrRenew(key, expiresAt, context, cancelled);
      },
    );
    pruning.counted(context.now);
    return fresh;
  };

  return {
    table,
    remember: gatedRemember(gate, remember),
    async ensureSchema() {
      await createOnce().catch((error: unknown) => {
        throw replayError(error);
      });
    },
    // A probe that reads nothing; the table is created only when it is missing.
    ready: () =>
      gate.ready((cancelled) =>
        runner.run(`SELECT 1 FROM ${table} LIMIT 0`, cancelled).catch((error: unknown) => {
          if (errnoOf(error) === ER_NO_SUCH_TABLE) return createOnce();
          throw error;
        }),
      ),
    prune: (now = Date.now()) => gate.call(undefined, () => pruning.prune(now)),
    close: () => gate.close(() => runner.idle()),
  };
}

/** The rows an UPDATE's WHERE matched, from its info ("Rows matched: 1  Changed: 1  Warnings: 0"). */
function matchedRows(result: unknown): number {
  const { info, affectedRows } = result as { info?: unknown; affectedRows?: unknown };
  const matched = typeof info === 'string' ? /Rows matched: (\d+)/.exec(info) : null;
  return matched?.[1] !== undefined ? Number(matched[1]) : Number(affectedRows ?? 0);
}

/** Epoch milliseconds as decimal text, refusing what is none. */
function millis(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  throw new TypeError(`mysqlReplayStore: times must be epoch milliseconds; received ${value}.`);
}
