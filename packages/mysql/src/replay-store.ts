import {
  cancellation,
  isPlantServiceError,
  ServiceUnavailableError,
  type ReplayContext,
  type ReplayStore,
} from '@plantstore/core';
import { abortError, NOT_CANCELLED } from './abort-error';
import { classifyClient, type MysqlClient } from './clients';
import { mapStoreError } from './map-error';
import { DEFAULT_REPLAY_TABLE, mysqlReplaySchemaSql } from './replay-schema';
import { binaryLiteral } from './sql-text';
import { statementRunner } from './statement-runner';
import { tableName } from './table-name';

/** Options of {@link mysqlReplayStore}. */
export interface MysqlReplayStoreOptions {
  /** A mysql2 Pool (the plant store's serves both), a PoolConnection or a Connection. */
  readonly client: MysqlClient;
  /** The table, optionally database-qualified. Default `plantstore_dpop_replay`. */
  readonly table?: string | undefined;
  /** Prune expired rows after every this many keys remembered by this instance. Default 1000. */
  readonly pruneEvery?: number | undefined;
  /** The most rows one prune deletes. Default 10000. */
  readonly pruneLimit?: number | undefined;
}

/** A {@link ReplayStore} on MySQL or MariaDB, with its schema step and pruning. */
export interface MysqlReplayStore extends ReplayStore {
  /** The table as the store's SQL names it, quoted. */
  readonly table: string;
  /**
   * Creates the table if it does not exist. The store also does it by itself when it finds the
   * table missing.
   *
   * @throws ServiceUnavailableError (`replay_store_unavailable`) when the database cannot be reached
   */
  ensureSchema(): Promise<void>;
  /**
   * Deletes up to `pruneLimit` rows expired at `now`; the store runs it by itself every `pruneEvery` keys.
   *
   * @param now - epoch milliseconds of the service's clock. Default `Date.now()`
   * @returns how many rows it deleted
   */
  prune(now?: number): Promise<number>;
  /** Refuses new calls (503) and waits for those under way and for the kills of aborted ones. */
  close(): Promise<void>;
}

const OPTION_NAMES = new Set(['client', 'table', 'pruneEvery', 'pruneLimit']);
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
 * const auth = jwtBearer({ jwksUri, issuer, audience, dpop: { replayStore } });
 * ```
 */
export function mysqlReplayStore(options: MysqlReplayStoreOptions): MysqlReplayStore {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      'mysqlReplayStore: expected options { client, table?, pruneEvery?, pruneLimit? }; ' +
        `received ${String(options)}.`,
    );
  }
  for (const option of Object.keys(options)) {
    if (!OPTION_NAMES.has(option)) {
      throw new TypeError(
        `mysqlReplayStore: unknown option \`${option}\` (expected client, table, pruneEvery, pruneLimit).`,
      );
    }
  }
  const tableOption = options.table ?? DEFAULT_REPLAY_TABLE;
  const table = tableName(tableOption, 'mysqlReplayStore').quoted;
  const pruneEvery = count('pruneEvery', options.pruneEvery, 1_000);
  const pruneLimit = count('pruneLimit', options.pruneLimit, 10_000);
  const runner = statementRunner(classifyClient(options.client, 'mysqlReplayStore'));

  const inFlight = new Set<Promise<unknown>>();
  let closed = false;
  let creating: Promise<unknown> | undefined;
  let sincePrune = 0;
  let pruning: Promise<unknown> | undefined;
  let warned = false;

  const createOnce = (): Promise<unknown> => {
    creating ??= runner.run(mysqlReplaySchemaSql(tableOption)).finally(() => {
      creating = undefined;
    });
    return creating;
  };

  const rememberOnce = async (
    key: string,
    expiresAt: number,
    context: ReplayContext,
  ): Promise<boolean> => {
    const cancelled = cancellation(context);
    const held = binaryLiteral(key);
    const until = millis(Math.ceil(expiresAt));
    try {
      await runner.run(
        `INSERT INTO ${table} (proof_key, expires_at) VALUES (${held}, ${until})`,
        cancelled,
      );
      return true;
    } catch (error) {
      if ((error as { errno?: unknown }).errno !== ER_DUP_ENTRY) throw error;
    }
    const renewed = await runner.run(
      `UPDATE ${table} SET expires_at = ${until} ` +
        `WHERE proof_key = ${held} AND expires_at <= ${millis(Math.floor(context.now))}`,
      cancelled,
    );
    return matchedRows(renewed) > 0;
  };

  const attempt = async (key: string, expiresAt: number, context: ReplayContext) => {
    const cancelled = cancellation(context);
    let fresh: boolean;
    try {
      try {
        fresh = await rememberOnce(key, expiresAt, context);
      } catch (error) {
        if (cancelled.aborted || (error as { errno?: unknown }).errno !== ER_NO_SUCH_TABLE) {
          throw error;
        }
        await createOnce();
        fresh = await rememberOnce(key, expiresAt, context);
      }
    } catch (error) {
      throw cancelled.aborted ? abortError(cancelled) : mapStoreError(error, 'replay');
    }
    sincePrune += 1;
    if (sincePrune >= pruneEvery && pruning === undefined) {
      sincePrune = 0;
      pruning = track(prune(context.now).catch(warnOnce)).finally(() => {
        pruning = undefined;
      });
    }
    return fresh;
  };

  const prune = async (now: number): Promise<number> => {
    const result = await runner.run(
      `DELETE FROM ${table} WHERE expires_at <= ${millis(Math.floor(now))} LIMIT ${pruneLimit}`,
      NOT_CANCELLED,
    );
    return Number((result as { affectedRows?: unknown }).affectedRows ?? 0);
  };

  // A prune nobody waits for has nobody to tell of its failure: an outage fails the calls too, but
  // a lasting fault (no DELETE privilege) would let the table grow unseen, so it is said once.
  const warnOnce = (error: unknown): void => {
    if (warned || isPlantServiceError(mapStoreError(error, 'replay'))) return;
    warned = true;
    process.emitWarning(
      `mysqlReplayStore: pruning expired rows of ${table} failed (${String(error)}); ` +
        'it is retried, and the table grows until it succeeds.',
      { code: 'PLANTSTORE_REPLAY_PRUNE_FAILED' },
    );
  };

  const track = <T>(pending: Promise<T>): Promise<T> => {
    inFlight.add(pending);
    void pending.finally(() => inFlight.delete(pending)).catch(() => undefined);
    return pending;
  };

  return {
    table,
    async remember(key, expiresAt, context) {
      const cancelled = cancellation(context);
      if (cancelled.aborted) throw abortError(cancelled);
      if (closed) throw closedError();
      return track(attempt(key, expiresAt, context));
    },
    async ensureSchema() {
      await createOnce().catch((error: unknown) => {
        throw mapStoreError(error, 'replay');
      });
    },
    async prune(now = Date.now()) {
      if (closed) throw closedError();
      try {
        return await track(prune(now));
      } catch (error) {
        throw mapStoreError(error, 'replay');
      }
    },
    async close() {
      closed = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await runner.idle();
    },
  };
}

/** The rows an UPDATE's WHERE matched, from its info ("Rows matched: 1  Changed: 1  Warnings: 0"). */
function matchedRows(result: unknown): number {
  const { info, affectedRows } = result as { info?: unknown; affectedRows?: unknown };
  const matched = typeof info === 'string' ? /Rows matched: (\d+)/.exec(info) : null;
  return matched?.[1] !== undefined ? Number(matched[1]) : Number(affectedRows ?? 0);
}

/** A whole count option: at least 1, at most a million, or the default when absent. */
function count(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1_000_000) {
    throw new TypeError(
      `mysqlReplayStore: \`${option}\` must be a whole number from 1 to 1000000; ` +
        `received ${typeof value === 'number' ? String(value) : typeof value}.`,
    );
  }
  return value;
}

/** Epoch milliseconds as decimal text, refusing what is none. */
function millis(value: number): string {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`mysqlReplayStore: times must be epoch milliseconds; received ${value}.`);
  }
  return String(value);
}

function closedError(): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'replay_store_unavailable',
    'The MySQL replay store is closed.',
  );
}
