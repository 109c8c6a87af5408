import {
  createPlantService,
  type HookContext,
  type InsertResult,
  type NewPlant,
  type PlantService,
  type PlantServiceOptions,
  type PlantStore,
  type PlantServiceError,
  ServiceUnavailableError,
} from '@plantstore/core';
import {
  BRIDGE_SETTINGS,
  BRIDGE_URL,
  type HookName,
  type WireEvent,
  type WireHookCall,
  type WireInsert,
  type WireInsertAnswer,
  type WireSettings,
  fromWireStored,
  toWirePlant,
} from './wire';
import { contractJwtBearer } from '../contract-auth';

// This file runs inside the runtime under test (Bun, Deno, Node), not in vitest: it imports only the
// core and the wire types, and speaks to the test process with fetch.

/** A route whose store and hooks live in the test process. */
export interface BridgedService {
  /** The route, with the test's limits and a `jwtBearer` of its own against the test's issuer. */
  readonly service: PlantService;
  /** Resolves when every hook call made so far has reached the test process. */
  readonly settled: () => Promise<void>;
  /** Tells the test process that something happened here, such as a request's signal aborting. */
  readonly report: (event: string) => Promise<void>;
}

/**
 * Builds the route in a runtime child process from what the test process put in its environment
 * (`PLANTSTORE_BRIDGE_URL`, `PLANTSTORE_BRIDGE_SETTINGS`): the store's inserts and the hooks travel
 * back to the test, so the contract suite can inspect its own memory store and hook calls.
 *
 * @param env - the child's environment (`process.env`, `Deno.env.toObject()`)
 * @param basePath - where the host program mounts the route
 * @returns the service, and a way to wait for hook deliveries
 * @example
 * ```ts
 * const { service, settled } = bridgedService(process.env, '/api');
 * Bun.serve({ port: 0, fetch: async (request) => {
 *   const response = await service.fetch(request);
 *   await settled();
 *   return response;
 * } });
 * ```
 */
export function bridgedService(
  env: Readonly<Record<string, string | undefined>>,
  basePath = '',
): BridgedService {
  const url = env[BRIDGE_URL];
  const settingsText = env[BRIDGE_SETTINGS];
  if (url === undefined || settingsText === undefined) {
    throw new TypeError(`${BRIDGE_URL} and ${BRIDGE_SETTINGS} must be set by the test process.`);
  }
  const settings = JSON.parse(settingsText) as WireSettings;
  const pending = new Set<Promise<unknown>>();

  const post = (path: string, body: unknown, signal?: AbortSignal): Promise<Response> =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    });

  const store: PlantStore = {
    async insert(plant, context): Promise<InsertResult> {
      const call: WireInsert = { plant: toWirePlant(plant), principal: context.principal };
      const answer = (await (
        await post('/insert', call, context.signal)
      ).json()) as WireInsertAnswer;
      if ('failed' in answer) {
        const { unavailable, code, message } = answer.failed;
        // Only a 503 of the store in the test process comes back as unavailable: its code is one of those.
        if (unavailable)
          throw new ServiceUnavailableError(code as ServiceUnavailableError['code'], message);
        throw new Error(message);
      }
      return answer.created
        ? answer
        : { created: false, existing: fromWireStored(answer.existing) };
    },
  };

  const forward =
    (hook: HookName) =>
    (value: NewPlant | PlantServiceError, context: HookContext): void => {
      const call: WireHookCall = {
        hook,
        ...(value instanceof Error
          ? { error: { status: value.status, code: value.code, message: value.message } }
          : { plant: toWirePlant(value) }),
        context: { method: context.method, path: context.path, principal: context.principal },
      };
      const delivery = post('/hook', call).then((response) => response.arrayBuffer());
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    };

  const options: PlantServiceOptions = {
    ...settings.limits,
    store,
    auth: contractJwtBearer(settings.auth),
    basePath,
    ...(settings.hooks.includes('onCreated') ? { onCreated: forward('onCreated') } : {}),
    ...(settings.hooks.includes('onRejected') ? { onRejected: forward('onRejected') } : {}),
    ...(settings.hooks.includes('onError') ? { onError: forward('onError') } : {}),
  };

  return {
    service: createPlantService(options),
    settled: async () => void (await Promise.allSettled([...pending])),
    report: async (event) => {
      const body: WireEvent = { event };
      await (await post('/event', body)).arrayBuffer();
    },
  };
}
