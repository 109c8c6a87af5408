import { tracingChannel, type TracingChannelSubscribers } from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import type { PlantStore } from '../plant/store';
import { CREATE_TRACING_CHANNEL, type CreateTraceMessage } from './diagnostics';
import { createPlantService } from './service';
import { type SampleServiceFactory, warmUp } from './warm-up';

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
        auth: {
          verify: (token) => {
            calls.push(`verify ${token}`);
            return Promise.resolve(undefined);
          },
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

  it('answers its sample request 200 through a service of its own, then closes that service', async () => {
    const events: string[] = [];
    await warmUp((options) => {
      const service = createPlantService(options);
      return {
        ...service,
        handle: async (request) => {
          const answer = await service.handle(request);
          events.push(`answered ${answer.status} ${String(answer.body)}`);
          return answer;
        },
        close: async () => {
          events.push('closed');
          await service.close();
        },
      };
    });
    // The first verifies the token, the second finds it in the cache: both are 200.
    expect(events).toStrictEqual([
      'answered 200 {"name":"Monstera","tag":"aroid"}',
      'answered 200 {"name":"Monstera","tag":"aroid"}',
      'closed',
    ]);
  });

  it('resolves, and never rejects, when its service cannot be made', async () => {
    await expect(
      warmUp(() => {
        throw new TypeError('no service here');
      }),
    ).resolves.toBeUndefined();
  });

  it('runs at once when warmedUp() is awaited before its timer fired, with the timers faked', async () => {
    vi.resetModules();
    vi.useFakeTimers();
    try {
      const { scheduleWarmUp, warmedUp } = await import('./warm-up');
      const answers: number[] = [];
      scheduleWarmUp((options) => {
        const service = createPlantService(options);
        return {
          ...service,
          handle: async (request) => {
            const answer = await service.handle(request);
            answers.push(answer.status);
            return answer;
          },
        };
      });
      await warmedUp();
      expect(answers).toStrictEqual([200, 200]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is scheduled once per process, however many services are created', async () => {
    vi.resetModules();
    const { scheduleWarmUp, warmedUp } = await import('./warm-up');
    const made: string[] = [];
    const sampleService: SampleServiceFactory = (options) => {
      made.push('service');
      return createPlantService(options);
    };
    scheduleWarmUp(sampleService);
    scheduleWarmUp(sampleService);
    await warmedUp();
    expect(made).toStrictEqual(['service']);
    await sleep(20);
    expect(made).toStrictEqual(['service']);
  });
});
