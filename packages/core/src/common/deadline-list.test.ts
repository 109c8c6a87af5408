import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
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

describe('deadlineList', () => {
  it('expires calls in deadline order, whatever order they were added in, and only those left listed', async () => {
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
    await sleep(30);
    expect(expired).toStrictEqual(['first']);
    await sleep(60);
    expect(expired).toStrictEqual(['first', 'middle', 'late']);
    expect(late.listed).toBe(false);
    list.remove(late);
    list.stop();
  });

  it('arms itself again for calls added after the list emptied, and never after stop', async () => {
    const list = deadlineList();
    const expired: string[] = [];
    list.add(call(performance.now() + 5, expired, 'one'));
    await sleep(20);
    list.add(call(performance.now() + 5, expired, 'two'));
    await sleep(20);
    expect(expired).toStrictEqual(['one', 'two']);
    list.add(call(performance.now() + 5, expired, 'three'));
    list.stop();
    await sleep(20);
    expect(expired).toStrictEqual(['one', 'two']);
  });
});
