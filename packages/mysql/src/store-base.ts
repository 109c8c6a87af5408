import type { StoreLifecycle } from '@plantstore/core/store-kit';

/** What both MySQL stores have besides their own primitive. */
export interface MysqlStoreBase extends StoreLifecycle {
  /** The table as the store's SQL names it, quoted with backticks: `` `plants` ``. */
  readonly table: string;
  /**
   * Creates the store's table when it does not exist, idempotently, so that several instances may
   * start at once.
   *
   * @throws ServiceUnavailableError (503) when the server cannot be reached
   */
  ensureSchema(): Promise<void>;
  /**
   * For readiness probes: resolves once the server answered, within `readyTimeout` (default 5 s).
   *
   * @throws ServiceUnavailableError (503) when it does not, or the store is closed
   */
  ready(): Promise<void>;
  /**
   * Refuses new calls (503), then waits for the calls under way and for the kills of aborted
   * statements (at most 10 s); a second call settles with the first. It ends nothing the caller
   * owns: end the Pool after it.
   */
  close(): Promise<void>;
}
