import { ServiceUnavailableError, type Cancellation } from '@plantstore/core';
import { STORE_TIMEOUT_MS } from '@plantstore/core/store-kit';
import type { RedisRunner } from './clients';

/** What a create waits for before it is acknowledged. */
export interface WriteConfirmation {
  /** Replicas that must have the write (`WAIT n`); 0 for none. */
  readonly replicas: number;
  /** Whether the server's own append-only file must have it on disk (`WAITAOF 1 0`, Redis 7.2+). */
  readonly disk: boolean;
}

// What the waits may take when the context carries no deadline (one the service did not make): the
// core's default store time-out, STORE_TIMEOUT_MS.
/** What is left of the time-out, in whole ms; `WAIT 0` and `WAITAOF … 0` would block for ever. */
function timeLeft(cancelled: Cancellation): number {
  return cancelled.expiresAt === undefined
    ? STORE_TIMEOUT_MS
    : Math.floor(cancelled.expiresAt - performance.now());
}

/**
 * Waits for the write to `key` to reach what `wanted` names, within what is left of the time-out,
 * on the connection that carried it: n replicas (`WAIT`), and the server's own disk (`WAITAOF`).
 * Fewer confirmations in time reject with a 503, and the plant may then exist (a retry replays it).
 *
 * @param runner - the store's runner
 * @param key - the plant's key
 * @param wanted - the replicas and the disk to wait for
 * @param cancelled - the call's time-out
 * @throws ServiceUnavailableError (503) when the confirmations did not come in time
 * @throws TypeError naming what to change when the server has no WAITAOF (before 7.2) or no AOF
 */
export async function confirmWrite(
  runner: RedisRunner,
  key: string,
  wanted: WriteConfirmation,
  cancelled: Cancellation,
): Promise<void> {
  const { replicas, disk } = wanted;
  if (replicas > 0) {
    const left = timeLeft(cancelled);
    // With nothing left, the core has answered 503 already.
    const acked = left >= 1 ? Number(await runner.wait(key, replicas, left, cancelled)) : 0;
    if (acked < replicas) {
      throw new ServiceUnavailableError(
        'store_unavailable',
        `Redis confirmed the write on ${acked} of ${replicas} replicas in time; the plant may exist.`,
      );
    }
  }
  if (disk) {
    const left = timeLeft(cancelled);
    const reply =
      left >= 1
        ? await runner.waitAof(key, left, cancelled).catch((error: unknown) => {
            throw waitAofError(error);
          })
        : undefined;
    if (!Array.isArray(reply) || Number(reply[0]) < 1) {
      throw new ServiceUnavailableError(
        'store_unavailable',
        'Redis did not confirm the write on its own disk in time; the plant may exist.',
      );
    }
  }
}

/**
 * The error of a `WAITAOF` the server cannot run, worded for the host: a server before 7.2 has no
 * such command, and one without an append-only file refuses it. It is a `TypeError`, as a
 * misconfiguration is, found when the server is first asked (the factory cannot know the server):
 * `ready()` rejects with it, and a create answers 500 with it as the cause, never a 503 to retry.
 * Any other failure is passed on.
 *
 * @param error - what the client rejected with
 * @returns a `TypeError` naming what to change, with `error` as its cause; or `error`
 */
export function waitAofError(error: unknown): unknown {
  const message = error instanceof Error ? error.message : '';
  if (/unknown command/i.test(message)) {
    return new TypeError(
      'redisStore: option "waitAof" needs Redis 7.2 or later, whose WAITAOF waits for the server’s own ' +
        `disk; this server answered "${message.trim()}". Upgrade Redis, or leave waitAof out and ` +
        'set appendonly yes and appendfsync always on the server.',
      { cause: error },
    );
  }
  if (/appendonly/i.test(message)) {
    return new TypeError(
      'redisStore: option "waitAof" needs appendonly yes on the server: WAITAOF waits for its append-only ' +
        'file, and this server keeps none. Set appendonly yes, or leave waitAof out.',
      { cause: error },
    );
  }
  return error;
}
