import { tracingChannel, type TracingChannelSubscribers } from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import type { PlantStore } from '../plant/store';
import { CREATE_TRACING_CHANNEL, type CreateTraceMessage } from './diagnostics';
import { createPlantService } from './service';
import { deadlineList } from '../common/deadline-list';
import { warmUp } from './warm-up';

describe('the start-up warm-up', () => {
  it('runs the route steps of a new service without calling the store, the auth, a hook or the diagnostics channel', async () => {
    const calls: string[] = [];
    const store: PlantStore = {
      insert: () => {
        calls.push('insert');
        return Promise.resolve({ created: true });
      },
    };
    const channel = tracingChannel<unknown, CreateTraceMessage>(CREATE_TRACING_CHANNEL);
    const subscribers: TracingChannelSubscribers<CreateTraceMessage> = {
      start: () => void calls.push('trace'),
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: () => undefined,
      error: () => undefined,
    };
    channel.subscribe(subscribers);
    try {
      createPlantService({
        store,
        auth: (token) => {
          calls.push(`verify ${token}`);
          return Promise.resolve(undefined);
        },
        onCreated: () => void calls.push('onCreated'),
        onRejected: () => void calls.push('onRejected'),
        onError: () => void calls.push('onError'),
      });
      createPlantService({
        store,
        auth: jwtBearer({
          secret: 'a-secret-of-at-least-thirty-two-bytes!',
          algorithms: ['HS256'],
        }),
        onRejected: () => void calls.push('onRejected'),
      });
      await sleep(50);
    } finally {
      channel.unsubscribe(subscribers);
    }
    expect(calls).toStrictEqual([]);
  });

  it('resolves, and never rejects, whatever the body limits refuse', async () => {
    const limits = { limitBytes: 1, timeoutMs: 1000, deadlines: deadlineList() };
    await expect(warmUp(limits)).resolves.toBeUndefined();
    limits.deadlines.stop();
  });
});
