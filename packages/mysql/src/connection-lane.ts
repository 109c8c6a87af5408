import type { Cancellation } from '@plantstore/core';
import { abortError } from '@plantstore/core/store-kit';
import type { MysqlConnectionLike } from './clients';
import { killableQuery } from './killable-query';

const noop = (): void => undefined;

/** Work that has the connection to itself until it calls `release`. */
export type LaneJob = (connection: MysqlConnectionLike, release: () => void) => Promise<unknown>;

interface Waiting {
  readonly job: LaneJob;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
  stopListening: () => void;
}

/** The statements of every store given one connection, one at a time. */
export interface ConnectionLane {
  run(sql: string, cancelled?: Cancellation): Promise<unknown>;
  /** Runs `job` once the connection is free; it rejects at once when `cancelled` fires first. */
  use(cancelled: Cancellation | undefined, job: LaneJob): Promise<unknown>;
  /** Settles once nothing is queued or running, the clean-up of aborted statements included. */
  drained(): Promise<void>;
}

// One lane per connection, shared by the plant store and the replay store given it: `KILL QUERY`
// names a connection, not a statement, so a statement must have the connection to itself.
const lanes = new WeakMap<MysqlConnectionLike, ConnectionLane>();

/**
 * The lane of a single connection: statements run in order, one at a time. A statement whose time-out
 * fires while it waits is never sent; one under way is killed, and the next waits until the kill
 * has been answered and taken up (see `killableQuery`).
 *
 * @param connection - the connection
 * @returns its lane, the same for every caller
 */
export function connectionLane(connection: MysqlConnectionLike): ConnectionLane {
  let lane = lanes.get(connection);
  if (lane === undefined) {
    lane = createLane(connection);
    lanes.set(connection, lane);
  }
  return lane;
}

function createLane(connection: MysqlConnectionLike): ConnectionLane {
  const queue: Waiting[] = [];
  let busy = false;
  let idle: (() => void)[] = [];

  const next = (): void => {
    const item = queue.shift();
    if (item === undefined) {
      busy = false;
      for (const notify of idle) notify();
      idle = [];
      return;
    }
    busy = true;
    item.stopListening();
    item.job(connection, next).then(item.resolve, item.reject);
  };

  const use = (cancelled: Cancellation | undefined, job: LaneJob): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (cancelled?.aborted === true) {
        reject(abortError(cancelled));
        return;
      }
      const item: Waiting = { job, resolve, reject, stopListening: noop };
      item.stopListening =
        cancelled?.onAbort(() => {
          const at = queue.indexOf(item);
          if (at >= 0) queue.splice(at, 1);
          reject(abortError(cancelled));
        }) ?? noop;
      queue.push(item);
      if (!busy) next();
    });

  return {
    // The lane moves on only when the connection is released, after any clean-up: nothing to track.
    run: (sql, cancelled) =>
      use(cancelled, (connection, release) =>
        killableQuery({ connection, sql, cancelled, release, track: noop }),
      ),
    use,
    drained() {
      if (!busy) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
