import type { DurableObjectStateLike, DurableObjectStorageLike } from './durable-object-types';
import { isRememberCall, type RememberAnswer } from './replay-wire';

// Expired keys are deleted by an alarm, at most this often, and only once they expired this long
// ago by the object's clock: the judge of expiry is the service's clock (`now` of each call), and
// a service clock behind the object's must still find the keys it could be shown a proof for.
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_GRACE_MS = 10 * 60 * 1000;
const PRUNE_BATCH = 1000;

/**
 * The Durable Object behind {@link durableObjectReplayStore}: it remembers DPoP proof keys until
 * they expire, for one range of keys. A Durable Object runs one request at a time for its storage
 * (its input gate holds other events while a storage call is under way), so the read and the write
 * of one key are one atomic step: of concurrent calls with one key, exactly one is told it is new.
 * Export it from your Worker under the class name your `wrangler.toml` binds (docs/hosts/cloudflare-workers.md).
 *
 * @example
 * ```ts
 * // src/worker.ts
 * export { ReplayDurableObject } from '@plantstore/cloudflare';
 * ```
 */
export class ReplayDurableObject {
  readonly #storage: DurableObjectStorageLike;

  /**
   * @param state - the object's state, as workerd hands it over
   * @param env - the Worker's bindings (unused)
   */
  constructor(state: DurableObjectStateLike, env?: unknown) {
    void env;
    this.#storage = state.storage;
  }

  /**
   * Answers the store's `POST /remember` with `{ remembered }` (true when the key was new or
   * expired, and is remembered now), its readiness probe `POST /ready`; anything else 400.
   *
   * @param request - the store's call
   * @returns the answer
   */
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === '/ready') return Response.json({ ready: true });
    const call: unknown = await request.json().catch(() => undefined);
    if (!isRememberCall(call)) {
      return Response.json({ error: 'expected { key, expiresAt, now }' }, { status: 400 });
    }
    const known = await this.#storage.get<number>(call.key);
    let answer: RememberAnswer = { remembered: false };
    if (known === undefined || known <= call.now) {
      await this.#storage.put(call.key, call.expiresAt);
      answer = { remembered: true };
      if ((await this.#storage.getAlarm()) === null) {
        await this.#storage.setAlarm(Date.now() + PRUNE_EVERY_MS);
      }
    }
    return Response.json(answer);
  }

  /** Deletes keys expired past the grace, and comes back while keys remain. */
  async alarm(): Promise<void> {
    const before = Date.now() - PRUNE_GRACE_MS;
    let remaining = false;
    let start: string | undefined;
    for (;;) {
      const page = await this.#storage.list<number>({
        limit: PRUNE_BATCH,
        ...(start === undefined ? {} : { start }),
      });
      const expired = [...page].filter(([, expiresAt]) => expiresAt < before).map(([key]) => key);
      remaining ||= expired.length < page.size;
      // The storage deletes at most 128 keys a call.
      for (let index = 0; index < expired.length; index += 128) {
        await this.#storage.delete(expired.slice(index, index + 128));
      }
      if (page.size < PRUNE_BATCH) break;
      start = `${[...page.keys()].at(-1) ?? ''}\u0000`;
    }
    if (remaining) await this.#storage.setAlarm(Date.now() + PRUNE_EVERY_MS);
  }
}
