import { ServiceUnavailableError } from '@plantstore/core';

/** What both MySQL stores have besides their own primitive. */
export interface MysqlStoreBase {
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
   * For readiness probes: resolves once the server answered.
   *
   * @throws ServiceUnavailableError (503) when it does not
   */
  ready(): Promise<void>;
  /**
   * Refuses new calls (503), then waits for the calls under way and for the kills of aborted
   * statements. It ends nothing the caller owns: end the Pool after it.
   */
  close(): Promise<void>;
}

/** Admits calls until the store is closed, and knows which are still under way. */
export interface StoreGate {
  /** Runs `call` unless the store is closed (then rejects with a 503), and tracks it. */
  admit<T>(call: () => Promise<T>): Promise<T>;
  /** Tracks work nobody waits on (a prune), so that closing waits for it too. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Closes the gate; settles once nothing tracked is under way. */
  shut(): Promise<void>;
  readonly isShut: boolean;
}

/**
 * The gate of one store.
 *
 * @param code - the code its refusals carry once it is closed
 * @param what - the store, for the message ("The MySQL store")
 * @returns the gate
 */
export function storeGate(code: ServiceUnavailableError['code'], what: string): StoreGate {
  const underWay = new Set<Promise<unknown>>();
  let shut = false;
  const track = <T>(work: Promise<T>): Promise<T> => {
    underWay.add(work);
    void work.then(
      () => underWay.delete(work),
      () => underWay.delete(work),
    );
    return work;
  };
  return {
    admit: (call) =>
      shut
        ? Promise.reject(new ServiceUnavailableError(code, `${what} is closed.`))
        : track(call()),
    track,
    async shut() {
      shut = true;
      while (underWay.size > 0) await Promise.allSettled([...underWay]);
    },
    get isShut() {
      return shut;
    },
  };
}
