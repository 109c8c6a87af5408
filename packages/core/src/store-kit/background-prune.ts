import { nodeBuiltin } from '../common/node-builtin';
import { isPlantServiceError } from '../errors/plant-service-error';
import { wholeNumber, type Factory } from '../options/check-options';
import type { StoreGate } from './store-gate';

/** The pruning options of a store that keeps expiring rows (a replay store's keys). */
export interface PruneOptions {
  /** Prune expired rows after every this many keys remembered by this instance. Default 1000. */
  readonly pruneEvery?: number | undefined;
  /** The most rows one prune deletes. Default 10000. */
  readonly pruneLimit?: number | undefined;
}

/** The names of {@link PruneOptions}, for a store's list of known options. */
export const PRUNE_OPTION_NAMES: readonly string[] = ['pruneEvery', 'pruneLimit'];

// pruneEvery and pruneLimit: whole counts, at least 1, at most a million.
const COUNT = { min: 1, max: 1_000_000 };

/** What {@link backgroundPrune} needs of its store. */
export interface BackgroundPruneOptions {
  /** The store's factory, as its warning names it: `mysqlReplayStore`. */
  readonly factory: Factory;
  /** The table, as the warning names it. */
  readonly table: string;
  /** The options as the caller gave them; checked here. */
  readonly options: PruneOptions;
  /** The store's gate: a prune under way is tracked, so `close()` waits for it. */
  readonly gate: StoreGate;
  /** Deletes up to `limit` rows expired at `now`. */
  readonly prune: (now: number, limit: number) => Promise<number>;
  /** The store's error mapping: what it turns into a 503 is an outage, not a lasting fault. */
  readonly mapError: (error: unknown) => unknown;
}

/** A store's pruning: the bounded delete, and the background run after every `pruneEvery` keys. */
export interface BackgroundPrune {
  /** Counts one remembered key, and starts a prune in the background (one at a time) when due. */
  counted(now: number): void;
  /** Runs one prune now, of at most `pruneLimit` rows; resolves to how many it deleted. */
  prune(now: number): Promise<number>;
}

/**
 * The pruning every SQL replay store runs beside `remember`: after every `pruneEvery` keys, one
 * bounded delete in the background that the call starting it does not wait for. A prune nobody
 * waits for has nobody to tell of its failure: an outage fails the calls too, but a lasting fault
 * (no DELETE privilege) would let the table grow unseen, so it is said once, as a process warning
 * (code `PLANTSTORE_REPLAY_PRUNE_FAILED`), on runtimes that have `node:process`.
 *
 * @param options - the factory's name, the table, the options, the gate and the store's delete
 * @returns the counter the store calls after each key, and the bounded prune
 * @throws TypeError when `pruneEvery` or `pruneLimit` is not a whole number from 1 to a million
 * @example
 * ```ts
 * const pruning = backgroundPrune({ factory: 'sqliteReplayStore', table, options, gate, prune, mapError });
 * // in remember, once the key is written:
 * pruning.counted(context.now);
 * ```
 */
export function backgroundPrune(options: BackgroundPruneOptions): BackgroundPrune {
  const { factory, table, gate, mapError } = options;
  const every = wholeNumber(factory, 'pruneEvery', options.options.pruneEvery, COUNT, 1_000);
  const limit = wholeNumber(factory, 'pruneLimit', options.options.pruneLimit, COUNT, 10_000);
  let sincePrune = 0;
  let pruning: Promise<unknown> | undefined;
  let warned = false;

  const prune = (now: number): Promise<number> => options.prune(now, limit);
  const warnOnce = (error: unknown): void => {
    if (warned || isPlantServiceError(mapError(error))) return;
    warned = true;
    nodeBuiltin('node:process')?.emitWarning(
      `${factory}: pruning expired rows of ${table} failed (${String(error)}); ` +
        'it is retried, and the table grows until it succeeds.',
      { code: 'PLANTSTORE_REPLAY_PRUNE_FAILED' },
    );
  };

  return {
    counted(now) {
      sincePrune += 1;
      if (sincePrune < every || pruning !== undefined) return;
      sincePrune = 0;
      pruning = gate.track(prune(now).catch(warnOnce)).finally(() => {
        pruning = undefined;
      });
    },
    prune,
  };
}
