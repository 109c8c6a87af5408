import {
  cancellation,
  isPlantServiceError,
  type ReplayContext,
  type ReplayStore,
} from '@plantstore/core';
import { checkKnownOptions, wholeNumber } from '@plantstore/core/adapter';
import { abortError } from './abort-error';
import { classifyClient, type MysqlClient } from './clients';
import { mapStoreError } from './map-error';
import { readyProbe } from './ready-probe';
import { DEFAULT_REPLAY_TABLE, mysqlReplaySchemaSql } from './replay-schema';
import { binaryLiteral } from './sql-text';
import { statementRunner } from './statement-runner';
import { storeGate, type MysqlStoreBase } from './store-gate';
import { tableName } from './table-name';

/**
 * Options of {@link mysqlReplayStore}: `client` as for `mysqlStore` (the plant store's Pool serves
 * both), `table` (default `plantstore_dpop_replay`), and the pruning of expired rows: after every
 * `pruneEvery` keys this instance remembers (default 1000), at most `pruneLimit` rows (default 10000).
 */
export type MysqlReplayStoreOptions = Readonly<{
  client: MysqlClient;
  table?: string | undefined;
  pruneEvery?: number | undefined;
  pruneLimit?: number | undefined;
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

const OPTIONS: ReadonlySet<string> = new Set(['client', 'table', 'pruneEvery', 'pruneLimit']);
// pruneEvery and pruneLimit: whole counts, at least 1, at most a million.
const COUNT = { min: 1, max: 1_000_000 };
const ER_DUP_ENTRY = 1062;
const ER_NO_SUCH_TABLE = 1146;
const errnoOf = (error: unknown): unknown => (error as { errno?: unknown } | null)?.errno;

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
  const pruneEvery = wholeNumber(
    'mysqlReplayStore',
    'pruneEvery',
    options.pruneEvery,
    COUNT,
    1_000,
  );
  const pruneLimit = wholeNumber(
    'mysqlReplayStore',
    'pruneLimit',
    options.pruneLimit,
    COUNT,
    10_000,
  );
  const runner = statementRunner(classifyClient(options.client, 'mysqlReplayStore'));
  const gate = storeGate('replay_store_unavailable', 'The MySQL replay store');
  const replayError = (error: unknown): Error => mapStoreError(error, 'replay');

  let creating: Promise<unknown> | undefined;
  let sincePrune = 0;
  let pruning: Promise<unknown> | undefined;
  let warned = false;

  // Calls that find the table missing at once share one creation.
  const createOnce = (): Promise<unknown> => {
    creating ??= runner.run(mysqlReplaySchemaSql(tableOption)).finally(() => {
      creating = undefined;
    });
    return creating;
  };

  const insertOrRenew = async (key: string, expiresAt: number, context: ReplayContext) => {
    const cancelled = cancellation(context);
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

  const remember = async (key: string, expiresAt: number, context: ReplayContext) => {
    const cancelled = cancellation(context);
    const fresh = await insertOrRenew(key, expiresAt, context)
      .catch(async (error: unknown) => {
        if (cancelled.aborted || errnoOf(error) !== ER_NO_SUCH_TABLE) throw error;
        await createOnce();
        return insertOrRenew(key, expiresAt, context);
      })
      .catch((error: unknown) => {
        throw cancelled.aborted ? abortError(cancelled) : replayError(error);
      });
    sincePrune += 1;
    if (sincePrune >= pruneEvery && pruning === undefined) {
      sincePrune = 0;
      pruning = gate.track(prune(context.now).catch(warnOnce)).finally(() => {
        pruning = undefined;
      });
    }
    return fresh;
  };

  const prune = async (now: number): Promise<number> => {
    const done = await runner.run(
      `DELETE FROM ${table} WHERE expires_at <= ${millis(Math.floor(now))} LIMIT ${pruneLimit}`,
    );
    return Number((done as { affectedRows?: unknown }).affectedRows ?? 0);
  };

  // A prune nobody waits for has nobody to tell of its failure: an outage fails the calls too, but
  // a lasting fault (no DELETE privilege) would let the table grow unseen, so it is said once.
  const warnOnce = (error: unknown): void => {
    if (warned || isPlantServiceError(replayError(error))) return;
    warned = true;
    process.emitWarning(
      `mysqlReplayStore: pruning expired rows of ${table} failed (${String(error)}); ` +
        'it is retried, and the table grows until it succeeds.',
      { code: 'PLANTSTORE_REPLAY_PRUNE_FAILED' },
    );
  };

  return {
    table,
    remember(key, expiresAt, context) {
      const cancelled = cancellation(context);
      if (cancelled.aborted) return Promise.reject(abortError(cancelled));
      return gate.admit(() => remember(key, expiresAt, context));
    },
    async ensureSchema() {
      await createOnce().catch((error: unknown) => {
        throw replayError(error);
      });
    },
    // A probe that reads nothing; the table is created only when it is missing.
    ready: () =>
      gate.admit(async () => {
        await readyProbe(runner, `SELECT 1 FROM ${table} LIMIT 0`, 'replay_store_unavailable')
          .catch((error: unknown) => {
            if (errnoOf(error) === ER_NO_SUCH_TABLE) return createOnce();
            throw error;
          })
          .catch((error: unknown) => {
            throw replayError(error);
          });
      }),
    prune: (now = Date.now()) =>
      gate.admit(() =>
        prune(now).catch((error: unknown) => {
          throw replayError(error);
        }),
      ),
    async close() {
      await gate.shut();
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

/** Epoch milliseconds as decimal text, refusing what is none. */
function millis(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  throw new TypeError(`mysqlReplayStore: times must be epoch milliseconds; received ${value}.`);
}
