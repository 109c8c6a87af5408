import {
  type Authenticator,
  createPlantService,
  memoryStore,
  type MemoryStore,
  type NewPlant,
  type PlantService,
  type PlantServiceError,
} from '@plantstore/core';
import { listen } from '@plantstore/http-suite/hosts';
import { type HostName, hostListener } from '../host/adapters';

/** What a host observed beyond the answers: hooks, the host's own error paths, server-side CPU. */
export interface HostRecord {
  /** Every error `onRejected` received, in order. */
  readonly rejected: PlantServiceError[];
  /** Every error `onError` received (a 5xx, or a hook that threw). */
  readonly errors: unknown[];
  /** Every plant `onCreated` received. */
  readonly created: NewPlant[];
  /** Errors that reached the host: Express's error middleware, Koa's `app.on('error')`, Fastify's error handler. */
  readonly hostErrors: unknown[];
  /** Requests the route passed on to the host's next handler. */
  readonly passedOn: string[];
  /** Server-side CPU microseconds of each finished request, from `request` to the response's `close`. */
  readonly cpuMicros: number[];
  /** Requests the route is still handling (its answer not decided yet). */
  inFlight: number;
}

/** A running app with the route, its store and what it observed. */
export interface HostileHost {
  readonly adapter: HostName;
  /** `http://127.0.0.1:<port>`; the route is `POST {origin}/plants`. */
  readonly origin: string;
  readonly port: number;
  readonly store: MemoryStore;
  /** The service behind the route; `ready()` has fetched the key set. */
  readonly service: PlantService;
  readonly record: HostRecord;
  close(): Promise<void>;
}

/** Options every host is started with, beyond the store and the hooks it records. */
export interface HostSettings {
  /** A fresh authenticator per host: each adapter gets its own key set and token cache. */
  readonly auth: () => Authenticator;
  /** Body read time-out in ms; short, so framing cases that stall finish quickly. Default 300. */
  readonly bodyTimeout?: number;
  /** Body limit in bytes. Default the service's, 16 KiB. */
  readonly bodyLimit?: number;
}

function newRecord(): HostRecord {
  return {
    rejected: [],
    errors: [],
    created: [],
    hostErrors: [],
    passedOn: [],
    cpuMicros: [],
    inFlight: 0,
  };
}

/**
 * Starts a real host app of one adapter on 127.0.0.1, port 0, with the route at `/plants`, a fresh
 * `memoryStore()`, the given auth, and hooks that record every refusal. The key set is fetched
 * before it answers.
 *
 * @param adapter - which host: a framework and its major, or `node:http`
 * @param settings - auth and body time-out
 * @returns the running host
 */
export async function startHost(adapter: HostName, settings: HostSettings): Promise<HostileHost> {
  const store = memoryStore();
  const record = newRecord();
  const service = createPlantService({
    store,
    auth: settings.auth(),
    bodyTimeout: settings.bodyTimeout ?? 300,
    ...(settings.bodyLimit === undefined ? {} : { bodyLimit: settings.bodyLimit }),
    onRejected: (error) => void record.rejected.push(error),
    onError: (error) => void record.errors.push(error),
    onCreated: (plant) => void record.created.push(plant),
  });
  await service.ready();
  // The adapters get the service with `handle` counted, so a run can wait for the route to finish
  // with a request whose connection Node's parser has already closed.
  const counted = Object.create(service, {
    handle: {
      value: (request: Parameters<PlantService['handle']>[0]) => {
        record.inFlight += 1;
        return service.handle(request).finally(() => {
          record.inFlight -= 1;
        });
      },
    },
  }) as PlantService;
  const inner = await hostListener(adapter, counted, {
    onHostError: (error) => void record.hostErrors.push(error),
    onPassedOn: (request) => void record.passedOn.push(request),
  });
  const host = await listen((req, res) => {
    const start = process.cpuUsage();
    res.once('close', () => {
      const used = process.cpuUsage(start);
      record.cpuMicros.push(used.user + used.system);
    });
    inner(req, res);
  });
  return {
    adapter,
    origin: host.url,
    port: host.port,
    store,
    service,
    record,
    close: () => host.close(),
  };
}
