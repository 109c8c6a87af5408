import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Deadline, deadlineList } from './deadline-list';

function call(expiresAt: number, expired: string[], name: string): Deadline {
  return {
    expiresAt,
    expire: () => expired.push(name),
    previous: undefined,
    next: undefined,
    listed: false,
  };
}

// A clock of the test's own: the list's timer and `performance.now()` move only when the test moves
// them, so a busy machine cannot fire a deadline early or late.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});
const sleep = (ms: number): void => {
  vi.advanceTimersByTime(ms);
};

describe('deadlineList', () => {
  it('expires calls in deadline order, whatever order they were added in, and only those left listed', () => {
    const list = deadlineList();
    const expired: string[] = [];
    const now = performance.now();
    const late = call(now + 60, expired, 'late');
    const settled = call(now + 20, expired, 'settled');
    list.add(late);
    list.add(call(now + 40, expired, 'middle'));
    list.add(settled);
    list.add(call(now + 10, expired, 'first'));
    list.remove(settled);
    list.remove(settled);
    sleep(30);
    expect(expired).toStrictEqual(['first']);
    sleep(60);
    expect(expired).toStrictEqual(['first', 'middle', 'late']);
    expect(late.listed).toBe(false);
    list.remove(late);
    list.stop();
  });

  it('arms itself again for calls added after the list emptied, and never after stop', () => {
    const list = deadlineList();
    const expired: string[] = [];
    list.add(call(performance.now() + 5, expired, 'one'));
    sleep(20);
    list.add(call(performance.now() + 5, expired, 'two'));
    sleep(20);
    expect(expired).toStrictEqual(['one', 'two']);
    list.add(call(performance.now() + 5, expired, 'three'));
    list.stop();
    sleep(20);
    expect(expired).toStrictEqual(['one', 'two']);
  });
});
