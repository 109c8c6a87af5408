import { rejects, strictEqual } from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { ReplayContext, ReplayStore } from '../auth/dpop/replay-store';
import { ABORTED_BEFORE, APART, EXPIRED, NEW, ONCE, SEEN } from './replay-store-rules';
import type { TestRegistrar } from './store-conformance';

/** Registers one test: the runner's `it`. */
export type It = TestRegistrar['it'];

/** Wraps a test of the suite: a fresh store from the options, destroyed after, and the start time. */
export type WithStore<S extends ReplayStore> = (
  test: (store: S, start: number) => Promise<void>,
) => () => Promise<void>;

/** A minute in milliseconds: the suite moves `context.now` by minutes, never waiting. */
export const MINUTE = 60_000;

/** A key as the service makes them: 43 characters, the base64url of a SHA-256. */
export function keyOf(label: string): string {
  return createHash('sha256').update(label).digest('base64url');
}

/** A context at `now`, with a signal that never fires unless one is given. */
export function at(now: number, signal: AbortSignal = new AbortController().signal): ReplayContext {
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
 * Registers the cases of `describeReplayStoreConformance` on one store: keys and their expiry,
 * concurrent calls, and the abort signal.
 *
 * @param it - the runner's `it`
 * @param withStore - runs a test on a fresh store
 */
export function describeReplayStoreCases<S extends ReplayStore>(
  it: It,
  withStore: WithStore<S>,
): void {
  it(
    'answers true for a new key and false for it again while it is unexpired',
    withStore(async (store, t) => {
      const key = keyOf('first');
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true, NEW);
      strictEqual(await store.remember(key, t + MINUTE, at(t)), false, SEEN);
      strictEqual(
        await store.remember(key, t + 2 * MINUTE, at(t + MINUTE - 1)),
        false,
        `${SEEN}; here 1 ms before its expiresAt`,
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
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true, NEW);
      for (const other of others) {
        strictEqual(
          await store.remember(other, t + MINUTE, at(t)),
          true,
          `${APART}: ${JSON.stringify(other)} is another key than ${JSON.stringify(key)}`,
        );
      }
      strictEqual(await store.remember(key, t + MINUTE, at(t)), false, SEEN);
    }),
  );

  it(
    'keeps a key of 128 printable ASCII characters whole, its trailing space included',
    withStore(async (store, t) => {
      const whole = 'keep keys of up to 128 ASCII characters whole, a trailing space included';
      strictEqual(await store.remember(LONG_KEY, t + MINUTE, at(t)), true, `${NEW}; ${whole}`);
      strictEqual(await store.remember(LONG_KEY, t + MINUTE, at(t)), false, `${SEEN}; ${whole}`);
      for (const other of [LONG_KEY.trimEnd(), `${LONG_KEY.slice(0, 127)}~`]) {
        strictEqual(
          await store.remember(other, t + MINUTE, at(t)),
          true,
          `${APART}; ${whole}: a key differing only in its last character is another key`,
        );
      }
    }),
  );

  it(
    "forgets a key once its expiresAt is not after the context's now, without waiting",
    withStore(async (store, t) => {
      const key = keyOf('expiry');
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true, NEW);
      strictEqual(await store.remember(key, t + 3 * MINUTE, at(t + MINUTE - 1)), false, SEEN);
      strictEqual(
        await store.remember(key, t + 3 * MINUTE, at(t + MINUTE)),
        true,
        `${EXPIRED}; here its expiresAt equals now`,
      );
    }),
  );

  it(
    'keeps the new expiry of an expired key remembered again',
    withStore(async (store, t) => {
      const key = keyOf('renewed');
      const renewed = `${EXPIRED}; here it was held until its old expiresAt instead`;
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true, NEW);
      strictEqual(await store.remember(key, t + 10 * MINUTE, at(t + 5 * MINUTE)), true, EXPIRED);
      strictEqual(await store.remember(key, t + 20 * MINUTE, at(t + 6 * MINUTE)), false, renewed);
      strictEqual(
        await store.remember(key, t + 20 * MINUTE, at(t + 10 * MINUTE - 1)),
        false,
        renewed,
      );
      strictEqual(await store.remember(key, t + 20 * MINUTE, at(t + 10 * MINUTE)), true, EXPIRED);
    }),
  );

  it(
    'keeps unexpired keys while others expire, whatever order they came in',
    withStore(async (store, t) => {
      const late = keyOf('late');
      const early = keyOf('early');
      const middle = keyOf('middle');
      for (const [key, expiresAt] of [
        [late, t + 30 * MINUTE],
        [early, t + MINUTE],
        [middle, t + 10 * MINUTE],
      ] as const) {
        strictEqual(await store.remember(key, expiresAt, at(t)), true, NEW);
      }
      const later = t + 5 * MINUTE;
      const kept = `${SEEN}: each key expires at its own expiresAt, whatever the order keys came in`;
      strictEqual(await store.remember(early, later + MINUTE, at(later)), true, EXPIRED);
      strictEqual(await store.remember(late, later + MINUTE, at(later)), false, kept);
      strictEqual(await store.remember(middle, later + MINUTE, at(later)), false, kept);
      strictEqual(await store.remember(keyOf('new'), later + MINUTE, at(later)), true, NEW);
    }),
  );

  it(
    'answers exactly one of 50 concurrent calls with one key true',
    withStore(async (store, t) => {
      const key = keyOf('contended');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => store.remember(key, t + MINUTE, at(t))),
      );
      strictEqual(newCount(answers), 1, `${ONCE}; this many of 50 resolved true`);
    }),
  );

  it(
    'answers exactly one of 50 concurrent calls true for an expired key',
    withStore(async (store, t) => {
      const key = keyOf('expired and contended');
      strictEqual(await store.remember(key, t + MINUTE, at(t)), true, NEW);
      const later = t + 2 * MINUTE;
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => store.remember(key, later + MINUTE, at(later))),
      );
      strictEqual(
        newCount(answers),
        1,
        `${ONCE}, an expired key too; this many of 50 resolved true`,
      );
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
      for (const key of keys) {
        strictEqual(news.get(key), 1, `${ONCE}; this many calls with key ${key} resolved true`);
      }
    }),
  );

  it(
    'refuses a call whose signal has already fired, and remembers nothing',
    withStore(async (store, t) => {
      const key = keyOf('aborted');
      const controller = new AbortController();
      controller.abort(new Error('replay check time-out'));
      await rejects(store.remember(key, t + MINUTE, at(t, controller.signal)), ABORTED_BEFORE);
      strictEqual(
        await store.remember(key, t + MINUTE, at(t)),
        true,
        `${ABORTED_BEFORE}; a later call found the key remembered`,
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
      const whole =
        'a call aborted under way may settle either way, but must leave the key remembered or not, ' +
        'and answer true only if it remembered it';
      if (first === true) strictEqual(second, false, whole);
      strictEqual(await store.remember(key, t + MINUTE, at(t)), false, `${SEEN}; ${whole}`);
    }),
  );
}
