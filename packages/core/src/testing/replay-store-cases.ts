import { rejects, strictEqual } from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { ReplayContext, ReplayStore } from '../auth/dpop/replay-store';
import type { TestRegistrar } from './store-conformance';

/** Registers one test: the runner's `it`. */
type It = TestRegistrar['it'];

/** Wraps a test of the suite: a fresh store from the options, destroyed after, and the start time. */
export type WithStore<S extends ReplayStore> = (
  test: (store: S, start: number) => Promise<void>,
) => () => Promise<void>;

const MINUTE = 60_000;

/** A key as the service makes them: 43 characters, the base64url of a SHA-256. */
function keyOf(label: string): string {
  return createHash('sha256').update(label).digest('base64url');
}

/** A context at `now`, with a signal that never fires unless one is given. */
function at(now: number, signal: AbortSignal = new AbortController().signal): ReplayContext {
  return { now, signal };
}

/** Counts the `true` answers of concurrent calls. */
function newCount(answers: readonly boolean[]): number {
  return answers.filter((answer) => answer).length;
}

/** 128 printable ASCII characters, every one of them at least once, ending in a space. */
const LONG_KEY = Array.from({ length: 128 }, (_, index) => String.fromCharCode(0x21 + (index % 94)))
  .join('')
  .slice(0, 127)
  .concat(' ');

/**
 * Registers the cases of `describeReplayStoreConformance`: keys and their expiry, concurrent
 * calls, the abort signal, and, with `createPeer`, two instances on one backend.
 *
 * @param it - the runner's `it`
 * @param withStore - runs a test on a fresh store
 * @param createPeer - opens a second instance on the backend of a store, if the backend has any
 */
export function describeReplayStoreCases<S extends ReplayStore>(
  it: It,
  withStore: WithStore<S>,
  createPeer: ((store: S) => S | Promise<S>) | undefined,
): void {
  it(
    'answers true for a new key and false for it again while it is unexpired',
    withStore(async (store, t) => {
      const key = keyOf('first');
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true, 'a new key is new');
      strictEqual(await store.remember(key, t + MINUTE, at(t)), false, 'the same key is seen');
      strictEqual(
        await store.remember(key, t + 2 * MINUTE, at(t + MINUTE - 1)),
        false,
        'a key is seen up to 1 ms before its expiresAt',
      );
    }),
  );

  it(
    'tells keys apart exactly: another key, another case, another last character',
    withStore(async (store, t) => {
      const key = keyOf('apart');
      const others = [
        keyOf('apart 2'),
        key.toUpperCase() === key ? key.toLowerCase() : key.toUpperCase(),
        `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`,
        key.slice(0, -1),
        `${key} `,
      ];
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true);
      for (const other of others) {
        strictEqual(
          await store.remember(other, t + MINUTE, at(t)),
          true,
          `${JSON.stringify(other)} is another key than ${JSON.stringify(key)}`,
        );
      }
      strictEqual(await store.remember(key, t + MINUTE, at(t)), false);
    }),
  );

  it(
    'keeps a key of 128 printable ASCII characters whole, its trailing space included',
    withStore(async (store, t) => {
      strictEqual(LONG_KEY.length, 128);
      strictEqual(await store.remember(LONG_KEY, t + MINUTE, at(t)), true);
      strictEqual(await store.remember(LONG_KEY, t + MINUTE, at(t)), false);
      for (const other of [LONG_KEY.trimEnd(), `${LONG_KEY.slice(0, 127)}~`]) {
        strictEqual(
          await store.remember(other, t + MINUTE, at(t)),
          true,
          'a key differing only in its last character is another key',
        );
      }
    }),
  );

  it(
    "forgets a key once its expiresAt is not after the context's now, without waiting",
    withStore(async (store, t) => {
      const key = keyOf('expiry');
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true);
      strictEqual(await store.remember(key, t + 3 * MINUTE, at(t + MINUTE - 1)), false);
      strictEqual(
        await store.remember(key, t + 3 * MINUTE, at(t + MINUTE)),
        true,
        'a key whose expiresAt equals now has expired, and is new again',
      );
    }),
  );

  it(
    'keeps the new expiry of an expired key remembered again',
    withStore(async (store, t) => {
      const key = keyOf('renewed');
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true);
      strictEqual(await store.remember(key, t + 10 * MINUTE, at(t + 5 * MINUTE)), true);
      strictEqual(
        await store.remember(key, t + 20 * MINUTE, at(t + 6 * MINUTE)),
        false,
        'the key was remembered until its new expiresAt, not its old one',
      );
      strictEqual(await store.remember(key, t + 20 * MINUTE, at(t + 10 * MINUTE - 1)), false);
      strictEqual(await store.remember(key, t + 20 * MINUTE, at(t + 10 * MINUTE)), true);
    }),
  );

  it(
    'keeps unexpired keys while others expire, whatever order they came in',
    withStore(async (store, t) => {
      const late = keyOf('late');
      const early = keyOf('early');
      const middle = keyOf('middle');
      strictEqual(await store.remember(late, t + 30 * MINUTE, at(t)), true);
      strictEqual(await store.remember(early, t + MINUTE, at(t)), true);
      strictEqual(await store.remember(middle, t + 10 * MINUTE, at(t)), true);
      const later = t + 5 * MINUTE;
      strictEqual(await store.remember(early, later + MINUTE, at(later)), true, 'early expired');
      strictEqual(await store.remember(late, later + MINUTE, at(later)), false, 'late was kept');
      strictEqual(await store.remember(middle, later + MINUTE, at(later)), false);
      strictEqual(await store.remember(keyOf('new'), later + MINUTE, at(later)), true);
    }),
  );

  it(
    'answers exactly one of 50 concurrent calls with one key true',
    withStore(async (store, t) => {
      const key = keyOf('contended');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => store.remember(key, t + MINUTE, at(t))),
      );
      strictEqual(newCount(answers), 1, 'exactly one call may find the key new');
    }),
  );

  it(
    'answers exactly one of 50 concurrent calls true for an expired key',
    withStore(async (store, t) => {
      const key = keyOf('expired and contended');
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true);
      const later = t + 2 * MINUTE;
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => store.remember(key, later + MINUTE, at(later))),
      );
      strictEqual(newCount(answers), 1, 'exactly one call may renew the expired key');
    }),
  );

  it(
    'answers each of 100 keys true exactly once under 1,000 concurrent calls',
    withStore(async (store, t) => {
      const keys = Array.from({ length: 100 }, (_, index) => keyOf(`many ${index}`));
      const calls = Array.from({ length: 1_000 }, (_, index) => keys[index % keys.length] ?? '');
      const answers = await Promise.all(calls.map((key) => store.remember(key, t + MINUTE, at(t))));
      const news = new Map<string, number>();
      for (const [index, answer] of answers.entries()) {
        const key = calls[index] ?? '';
        if (answer) news.set(key, (news.get(key) ?? 0) + 1);
      }
      for (const key of keys) strictEqual(news.get(key), 1, `key ${key} was new once`);
    }),
  );

  it(
    'refuses a call whose signal has already fired, and remembers nothing',
    withStore(async (store, t) => {
      const key = keyOf('aborted');
      const controller = new AbortController();
      controller.abort(new Error('replay check time-out'));
      await rejects(store.remember(key, t + MINUTE, at(t, controller.signal)));
      strictEqual(
        await store.remember(key, t + MINUTE, at(t)),
        true,
        'the aborted call must not have remembered the key',
      );
    }),
  );

  it(
    'leaves the key remembered or not when aborted under way, and answers definitely after',
    withStore(async (store, t) => {
      const key = keyOf('aborted under way');
      const controller = new AbortController();
      const pending = store.remember(key, t + MINUTE, at(t, controller.signal));
      controller.abort(new Error('replay check time-out'));
      const first = await pending.catch(() => undefined);
      const second = await store.remember(key, t + MINUTE, at(t));
      if (first === true) strictEqual(second, false, 'a call that answered true remembered');
      strictEqual(await store.remember(key, t + MINUTE, at(t)), false);
    }),
  );

  if (createPeer === undefined) return;
  const withPeers = (test: (one: S, two: S, start: number) => Promise<void>) =>
    withStore(async (store, start) => {
      const peer = await createPeer(store);
      try {
        await test(store, peer, start);
      } finally {
        await peer.close?.();
      }
    });

  it(
    'sees the keys another instance on the same backend remembered',
    withPeers(async (one, two, t) => {
      const [a, b] = [keyOf('peer a'), keyOf('peer b')];
      strictEqual(await one.remember(a, t + MINUTE, at(t)), true);
      strictEqual(await two.remember(a, t + MINUTE, at(t)), false, 'the peer saw the key');
      strictEqual(await two.remember(b, t + MINUTE, at(t)), true);
      strictEqual(await one.remember(b, t + MINUTE, at(t)), false, 'and the first its key');
      const later = t + 2 * MINUTE;
      strictEqual(await two.remember(a, later + MINUTE, at(later)), true, 'a expired');
      strictEqual(await one.remember(a, later + MINUTE, at(later)), false, 'renewed by two');
    }),
  );

  it(
    'answers each key true exactly once under concurrent calls split across two instances',
    withPeers(async (one, two, t) => {
      const keys = Array.from({ length: 50 }, (_, index) => keyOf(`split ${index}`));
      const calls = Array.from({ length: 400 }, (_, index) => ({
        key: keys[index % keys.length] ?? '',
        // Each key's calls alternate between the two instances.
        store: Math.floor(index / keys.length) % 2 === 0 ? one : two,
      }));
      const answers = await Promise.all(
        calls.map(({ key, store }) => store.remember(key, t + MINUTE, at(t))),
      );
      for (const key of keys) {
        const news = answers.filter((answer, index) => answer && calls[index]?.key === key);
        strictEqual(news.length, 1, `key ${key} was new once across both instances`);
      }
    }),
  );
}
