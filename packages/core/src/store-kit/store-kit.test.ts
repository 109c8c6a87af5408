import { describe, expect, it, vi } from 'vitest';
import { ServiceUnavailableError } from '../errors/server-errors';
import { insertOrRead } from './insert-or-read';
import { storeGate } from './store-gate';
import { storedPlant } from './stored-plant';
import { boundedWait, readyTimeoutOption, TIMED_OUT } from './store-timeout';

const never = new Promise<never>(() => undefined);
const aborted = (reason: unknown) => {
  const controller = new AbortController();
  controller.abort(reason);
  return { signal: controller.signal };
};

describe('storeGate', () => {
  const gate = () => storeGate({ code: 'store_unavailable', what: 'The test store' });

  it('refuses a call whose signal fired with the abort reason, and does not start it', async () => {
    const reason = new Error('store time-out');
    let started = false;
    const call = gate().call(aborted(reason), () => {
      started = true;
      return Promise.resolve(1);
    });
    await expect(call).rejects.toBe(reason);
    expect(started).toBe(false);
  });

  it('answers a failure after the abort with the abort reason, others through mapError', async () => {
    const reason = new Error('store time-out');
    const controller = new AbortController();
    const mapped = new Error('mapped');
    const mapping = storeGate({ code: 'store_unavailable', what: 'x', mapError: () => mapped });
    const late = mapping.call(controller, () => {
      controller.abort(reason);
      return Promise.reject(new Error('socket closed'));
    });
    await expect(late).rejects.toBe(reason);
    await expect(mapping.call(undefined, () => Promise.reject(new Error('x')))).rejects.toBe(
      mapped,
    );
  });

  it('bounds a call without a signal by the store time-out: 503 naming it, its cancellation fired', async () => {
    vi.useFakeTimers();
    try {
      let seen: { aborted: boolean } | undefined;
      const hung = gate().bounded((cancelled) => {
        seen = cancelled;
        return new Promise<never>(() => undefined);
      });
      const settled = expect(hung).rejects.toMatchObject({
        status: 503,
        code: 'store_unavailable',
        message: 'The test store did not answer within 5 s.',
      });
      await vi.advanceTimersByTimeAsync(5_000);
      await settled;
      expect(seen?.aborted).toBe(true);
      await expect(gate().bounded(() => Promise.resolve(7))).resolves.toBe(7);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses calls after close() with 503, waits for those under way, and closes once', async () => {
    const store = gate();
    let finish = (): void => undefined;
    const running = store.call(
      undefined,
      () => new Promise<string>((r) => (finish = () => r('done'))),
    );
    const order: string[] = [];
    const closing = store.close().then(() => order.push('closed'));
    expect(store.close()).toBe(store.close());
    await expect(store.call(undefined, () => Promise.resolve(1))).rejects.toMatchObject({
      status: 503,
      code: 'store_unavailable',
      message: 'The test store is closed.',
    });
    await expect(store.ready(() => Promise.resolve())).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    void running.then(() => order.push('call'));
    finish();
    await closing;
    expect(order).toEqual(['call', 'closed']);
  });

  it('bounds ready(): a silent probe is cancelled and answered 503 naming the bound', async () => {
    const store = storeGate({
      code: 'replay_store_unavailable',
      what: 'The test store',
      readyTimeout: 20,
    });
    let cancelled = false;
    const ready = store.ready((cancellation) => {
      cancellation.onAbort(() => (cancelled = true));
      return never;
    });
    await expect(ready).rejects.toMatchObject({
      status: 503,
      code: 'replay_store_unavailable',
      message: 'The test store did not answer within 0.02 s.',
    });
    expect(cancelled).toBe(true);
  });

  it('bounds close(): a call that never ends does not hold it past closeTimeout', async () => {
    const store = storeGate({ code: 'store_unavailable', what: 'x', closeTimeout: 20 });
    void store.call(undefined, () => never);
    await expect(store.close()).resolves.toBeUndefined();
  });
});

describe('boundedWait and readyTimeoutOption', () => {
  it('settles with the work, or TIMED_OUT once the bound passed', async () => {
    await expect(boundedWait(Promise.resolve(1), 1_000)).resolves.toBe(1);
    await expect(boundedWait(never, 5)).resolves.toBe(TIMED_OUT);
    await expect(boundedWait(Promise.reject(new Error('x')), 1_000)).rejects.toThrow('x');
  });

  it('reads readyTimeout, 5000 by default, and refuses what is no bound', () => {
    expect(readyTimeoutOption('testStore', undefined)).toBe(5_000);
    expect(readyTimeoutOption('testStore', 250)).toBe(250);
    expect(() => readyTimeoutOption('testStore', 0)).toThrow(
      'testStore: option "readyTimeout" must be a whole number from 1 to 2147483647; received 0',
    );
  });
});

describe('storedPlant and insertOrRead', () => {
  it('keeps the plant of the id asked for, its tag only when it has one', () => {
    const plant = storedPlant(
      { id: '9007199254740993', name: 'Fern', tag: null },
      9007199254740993n,
    );
    expect({ ...plant }).toEqual({ id: 9007199254740993n, name: 'Fern' });
    expect(Object.getPrototypeOf(plant)).toBeNull();
    expect(Object.isFrozen(plant)).toBe(true);
    expect(storedPlant({ id: 1n, name: 'a', tag: '' }, 1n).tag).toBe('');
  });

  it.each([
    [{ id: '2', name: 'a' }, 'myStore: the stored plant is not the plant of id 1.'],
    [{ id: 1.5, name: 'a' }, 'myStore: the stored plant is not the plant of id 1.'],
    [{ id: '1', name: 5 }, 'myStore: the stored row does not have the shape of a plant.'],
    [{ id: '1', name: 'a', tag: 7 }, 'myStore: the stored row does not have the shape of a plant.'],
  ])('refuses %j, naming the store', (row, message) => {
    expect(() => storedPlant(row, 1n, 'myStore')).toThrow(message);
  });

  it('reads after a refused insert, and tries once more when the row vanished', async () => {
    const fern = storedPlant({ id: 3n, name: 'Fern' }, 3n);
    const reads = [undefined, fern];
    const inserts = [false, false];
    const result = await insertOrRead('myStore', 3n, {
      insert: () => Promise.resolve(inserts.shift() ?? true),
      read: () => Promise.resolve(reads.shift()),
    });
    expect(result).toEqual({ created: false, existing: fern });
    await expect(
      insertOrRead('myStore', 4n, {
        insert: () => Promise.resolve(false),
        read: () => Promise.resolve(undefined),
      }),
    ).rejects.toThrow('myStore: id 4 was neither inserted nor found, twice.');
  });
});
