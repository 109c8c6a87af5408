import type { Cancellation } from '@plantstore/core';
import { describe, expect, it } from 'vitest';
import { slotRefresher } from '../src/slot-refresh';

/** A node-redis cluster's slot map and masters, counting the rediscoveries asked of it. */
function fakeCluster() {
  const asked: unknown[] = [];
  const live = { isReady: true };
  const cluster = {
    _slots: { rediscover: (startWith?: unknown) => Promise.resolve(void asked.push(startWith)) },
    masters: [{ client: { isReady: false } }, { client: live }],
  };
  return { cluster, asked, live };
}

/** A time-out the test fires. */
function timeOut(): Cancellation & { fire(): void } {
  const listeners: (() => void)[] = [];
  return {
    aborted: false,
    reason: undefined,
    onAbort: (listener) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
    fire: () => listeners.forEach((listener) => listener()),
  };
}

class ErrorReply extends Error {}
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('slotRefresher', () => {
  it('asks a live master to rediscover the slots when a command fails for want of its node', async () => {
    const { cluster, asked, live } = fakeCluster();
    const watched = slotRefresher(cluster);
    const lost = new Error('Socket closed unexpectedly');
    await expect(watched(Promise.reject(lost), undefined)).rejects.toBe(lost);
    await flush();
    expect(asked).toEqual([live]);
  });

  it('asks when a command still waits at its time-out, and not once it has answered', async () => {
    const { cluster, asked } = fakeCluster();
    const watched = slotRefresher(cluster);
    const answered = timeOut();
    await watched(Promise.resolve('OK'), answered);
    answered.fire();
    const waiting = timeOut();
    void watched(new Promise(() => undefined), waiting);
    waiting.fire();
    await flush();
    expect(asked.length).toBe(1);
  });

  it("leaves the topology alone for the server's own answers, and asks at most once per 500 ms", async () => {
    const { cluster, asked } = fakeCluster();
    const watched = slotRefresher(cluster);
    await watched(Promise.reject(new ErrorReply('WRONGTYPE')), undefined).catch(() => undefined);
    for (let n = 0; n < 5; n += 1) {
      await watched(Promise.reject(new Error('offline')), undefined).catch(() => undefined);
    }
    await flush();
    expect(asked.length).toBe(1);
  });

  it('does nothing on a client without a slot map (ioredis, or a node-redis that has none)', async () => {
    const watched = slotRefresher({});
    await expect(watched(Promise.reject(new Error('offline')), undefined)).rejects.toThrow(
      'offline',
    );
  });
});
