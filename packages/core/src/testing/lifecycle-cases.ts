import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import { boundedWait, TIMED_OUT } from '../store-kit/store-timeout';
import { silentServer, type SilentServer } from './silent-server';

/** How the lifecycle cases reach a store that never hears back: the kit's silent server. */
export interface SilentStoreOptions<S> {
  /**
   * Builds a store whose backend is `server` (a host and port that accept connections and never
   * answer), with a short `readyTimeout` (say 500 ms); or, for a store that speaks no TCP (a
   * binding), one on a backend that never answers.
   */
  readonly create: (server: SilentServer) => S | Promise<S>;
  /** Releases it (and the client it was given) after the case. */
  readonly destroy?: ((store: S) => void | Promise<void>) | undefined;
}

/** What the lifecycle cases need of a store kind: one call, and whether it wrote. */
export interface LifecycleSubject<S> {
  /** The store's one primitive, for the `n`th thing of a case (a plant, a key). */
  readonly call: (store: S, n: number) => Promise<unknown>;
  /** Whether `peer` finds the `n`th thing unwritten (and writes it now). */
  readonly unwritten: (peer: S, n: number) => Promise<boolean>;
  /** What the call resolves to when it wrote the `n`th thing. */
  readonly wrote: unknown;
}

interface Lifecycle {
  readonly ready?: (this: unknown) => Promise<void>;
  readonly close?: (this: unknown) => Promise<void>;
}

/** How the suite runs a case: a fresh store, its peer maker, and the silent store's options. */
export interface LifecycleOptions<S> {
  readonly withStore: (test: (store: S) => Promise<void>) => () => Promise<void>;
  readonly createPeer?: ((store: S) => S | Promise<S>) | undefined;
  readonly silent?: SilentStoreOptions<S> | undefined;
}

// A bound far past any store's own: a ready() still waiting then is an unbounded one.
const LONGEST_READY_MS = 20_000;
const KIT = 'storeGate() of @plantstore/core/store-kit does it';

/** Rejection of `pending`, or a failure naming `rule` when it resolved. */
async function refusal(pending: Promise<unknown>, rule: string): Promise<unknown> {
  const outcome = await pending.then(
    () => ({ failed: false, error: undefined }),
    (error: unknown) => ({ failed: true, error }),
  );
  ok(outcome.failed, rule);
  return outcome.error;
}

function is503(error: unknown, rule: string): void {
  const { status, code } = (error ?? {}) as { status?: unknown; code?: unknown };
  strictEqual(status, 503, `${rule}: reject with a ServiceUnavailableError (503)`);
  ok(
    typeof code === 'string' && code.endsWith('unavailable'),
    `${rule}: its code must be store_unavailable or replay_store_unavailable; was ${String(code)}`,
  );
}

function lifecycleOf(store: unknown): Required<Lifecycle> {
  const { ready, close } = store as Lifecycle;
  ok(typeof ready === 'function', `every store has ready(), bounded: ${KIT}`);
  ok(typeof close === 'function', `every store has close(): ${KIT}`);
  return { ready: () => ready.call(store), close: () => close.call(store) };
}

type Case<S> = readonly [
  name: string,
  run: (store: S, subject: LifecycleSubject<S>, options: LifecycleOptions<S>) => Promise<void>,
];

/** The lifecycle, as a table: each row one rule of `ready()` and `close()`. */
function cases<S>(): readonly Case<S>[] {
  return [
    [
      'answers ready() while its backend answers',
      async (store) => {
        await lifecycleOf(store).ready();
      },
    ],
    [
      'refuses a call after close() with a 503, and writes nothing',
      async (store, subject, { createPeer }) => {
        await lifecycleOf(store).close();
        const rule = 'after close(), a call must be refused';
        is503(await refusal(subject.call(store, 1), rule), rule);
        if (createPeer === undefined) return;
        const peer = await createPeer(store);
        try {
          ok(await subject.unwritten(peer, 1), `${rule}: a call after close() wrote`);
        } finally {
          await (peer as Lifecycle).close?.();
        }
      },
    ],
    [
      'refuses ready() after close() with a 503',
      async (store) => {
        const { ready, close } = lifecycleOf(store);
        await close();
        const rule = 'after close(), ready() must say the store is not ready';
        is503(await refusal(ready(), rule), rule);
      },
    ],
    [
      'completes a call in flight when close() is called, and close() waits for it',
      async (store, subject) => {
        const order: string[] = [];
        const pending = subject.call(store, 2).then((result) => {
          order.push('call');
          return result;
        });
        const closing = lifecycleOf(store)
          .close()
          .then(() => void order.push('close'));
        const [result] = await Promise.all([pending, closing]);
        const rule = 'close() must let the calls under way finish, then settle';
        deepStrictEqual(result, subject.wrote, `${rule}: the call in flight failed`);
        deepStrictEqual(order, ['call', 'close'], `${rule}: close() settled first`);
      },
    ],
    [
      'may be closed twice, one after the other and at once',
      async (store) => {
        const { close } = lifecycleOf(store);
        await Promise.all([close(), close()]);
        await close();
      },
    ],
  ];
}

/**
 * Registers the lifecycle cases of a store suite: `ready()` while the backend answers and, given
 * `silent`, within its bound when it never does; `close()` refusing new calls with a 503 and
 * writing nothing, waiting for a call in flight, callable twice.
 *
 * @param it - the runner's `it`
 * @param subject - the store kind's call
 * @param options - fresh stores, peers and the silent store
 */
export function describeLifecycleCases<S>(
  it: (name: string, body: () => Promise<void>) => unknown,
  subject: LifecycleSubject<S>,
  options: LifecycleOptions<S>,
): void {
  for (const [name, run] of cases<S>()) {
    it(
      `lifecycle: ${name}`,
      options.withStore(async (store) => {
        // Both are optional members of the interfaces: a store with neither has no lifecycle to
        // test. Every shipped store has both (the kit's storeGate), and one of the two needs both.
        const { ready, close } = store as Lifecycle;
        if (ready === undefined && close === undefined) return;
        await run(store, subject, options);
      }),
    );
  }
  const { silent } = options;
  if (silent === undefined) return;
  it('lifecycle: answers ready() with a 503 within its bound when the backend never answers', async () => {
    const server = await silentServer();
    const store = await silent.create(server);
    try {
      const rule = 'ready() must reject within its bound (readyTimeout) when the backend is silent';
      const answer = await boundedWait(
        refusal(lifecycleOf(store).ready(), `${rule}; it resolved`),
        LONGEST_READY_MS,
      );
      ok(answer !== TIMED_OUT, `${rule}; it still waited after ${LONGEST_READY_MS / 1000} s`);
      is503(answer, rule);
    } finally {
      // The server first: a client still connecting to it then fails, and can be ended.
      await server.close();
      await silent.destroy?.(store);
    }
  });
}
