import type { PlantLogger } from '@plantstore/core';
import type { RedisRunner } from './clients';
import { waitAofError } from './confirm-write';
import { persistenceRisk, readPersistence } from './persistence';

/** What the service hands `ready()`: its logger, `undefined` with `logger: false`. */
export type ReadyContext = { readonly logger: PlantLogger | undefined } | undefined;

/**
 * The part of `redisStore`'s `ready()` that looks at what a 200 survives, once per store (until it
 * succeeds): a readiness probe that runs every few seconds sends a `PING` alone after that.
 *
 * - With `waitAof`, a `WAITAOF 1 0 1` must run: a server before 7.2 (no such command) or without an
 *   append-only file makes `ready()` reject with a `TypeError` naming what to change, since every
 *   create would fail.
 * - Without, it reads the server's persistence and, unless a crash of the server keeps every
 *   acknowledged create (`appendonly yes` and `appendfsync always`), warns once through the
 *   service's logger, naming the risk and the fix. Called without a context (the host's own
 *   `store.ready()`), it warns through `process.emitWarning`, code `PLANTSTORE_REDIS_DURABILITY`.
 *
 * @param runner - the store's runner
 * @param waitAof - whether each create waits for the server's own disk
 * @returns the check, given `ready()`'s context
 * @example
 * ```ts
 * const durability = durabilityCheck(runner, false);
 * ready: (context) => ping().then(() => durability(context)),
 * ```
 */
export function durabilityCheck(
  runner: RedisRunner,
  waitAof: boolean,
): (context: ReadyContext) => Promise<void> {
  let checked = false;
  return async (context) => {
    if (checked) return;
    if (waitAof) {
      await runner.send(['WAITAOF', '1', '0', '1']).catch((error: unknown) => {
        throw waitAofError(error);
      });
    } else {
      const risk = persistenceRisk(await readPersistence((args) => runner.send(args)));
      if (risk !== undefined) warn(context, risk);
    }
    checked = true;
  };
}

function warn(context: ReadyContext, risk: string): void {
  const message =
    `plantstore: redisStore: Redis answers a create before the plant is safe on its disk: ${risk}. ` +
    'Set appendonly yes and appendfsync always on the server, or waitAof: true on the store ' +
    '(Redis 7.2+), so that a 200 means the plant survives a crash of the server.';
  if (context === undefined) {
    process.emitWarning(message, { code: 'PLANTSTORE_REDIS_DURABILITY' });
  } else {
    context.logger?.warn(message);
  }
}
