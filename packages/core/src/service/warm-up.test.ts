import { tracingChannel, type TracingChannelSubscribers } from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import type { PlantStore } from '../plant/store';
import { CREATE_TRACING_CHANNEL, type CreateTraceMessage } from './diagnostics';
import { createPlantService } from './service';
import type { PlantService } from './plant-service';
import { warmUp } from './warm-up';
import { createPlantService as createWebPlantService } from './web-service';

/** Records the calls that reach a user's store, auth, hooks and diagnostics channel. */
function observedServices(calls: string[]): readonly PlantService[] {
  const store: PlantStore = {
    insert: () => {
      calls.push('insert');
      return Promise.resolve({ created: true });
    },
  };
  return [
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
    }),
    createPlantService({
      store,
      auth: jwtBearer({ secret: 'a-secret-of-at-least-thirty-two-bytes!', algorithms: ['HS256'] }),
      onRejected: () => void calls.push('onRejected'),
    }),
  ];
}

/** A service of `createPlantService` whose answers and closing are written down in `events`. */
function recordingService(
  events: string[],
): (options: Parameters<typeof createPlantService>[0]) => PlantService {
  return (options) => {
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
  };
}

describe('the warm-up', () => {
  it('does nothing unless asked: creating a service starts no timer and no request', async () => {
    const timers = (): number =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const calls: string[] = [];
    observedServices(calls);
    expect(timers()).toBe(before);
    await sleep(20);
    expect(calls).toStrictEqual([]);
  });

  it("runs without calling the user's store, auth, hooks or diagnostics channel", async () => {
    const calls: string[] = [];
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
      for (const service of observedServices(calls)) {
        await service.warmUp();
        await service.ready();
      }
    } finally {
      channel.unsubscribe(subscribers);
    }
    expect(calls).toStrictEqual([]);
  });

  it('answers its sample request 200 twice through a service of its own, then closes that service', async () => {
    const events: string[] = [];
    await warmUp(recordingService(events));
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

  it('runs once per service: later calls, ready() included, answer the same promise', async () => {
    const service = createPlantService({
      store: { insert: () => Promise.resolve({ created: true }) },
      auth: { verify: () => Promise.resolve(undefined) },
    });
    const first = service.warmUp();
    expect(service.warmUp()).toBe(first);
    await service.ready();
    expect(service.warmUp()).toBe(first);
    await expect(first).resolves.toBeUndefined();
  });

  it('depends on no timer: it completes while a test fakes them', async () => {
    vi.useFakeTimers();
    try {
      const events: string[] = [];
      await warmUp(recordingService(events));
      expect(events).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the Workers and Edge build of createPlantService', () => {
  it('has no warm-up: warmUp() resolves at once without a request, and ready() waits for the auth and the store', async () => {
    const calls: string[] = [];
    const service = createWebPlantService({
      store: {
        insert: () => Promise.resolve({ created: true }),
        ready: () => {
          calls.push('store ready');
          return Promise.resolve();
        },
      },
      auth: {
        verify: () => Promise.resolve(undefined),
        ready: () => {
          calls.push('auth ready');
          return Promise.resolve();
        },
      },
      onRejected: () => void calls.push('onRejected'),
    });
    const first = service.warmUp();
    expect(service.warmUp()).toBe(first);
    await expect(first).resolves.toBeUndefined();
    await service.ready();
    expect(calls).toStrictEqual(['auth ready', 'store ready']);
  });
});
