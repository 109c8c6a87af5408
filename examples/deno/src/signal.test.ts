import { fileURLToPath } from 'node:url';
import {
  memoryStore,
  type NewPlant,
  type PlantStore,
  type PlantServiceError,
} from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import {
  type Bridge,
  requireRuntime,
  type RuntimeProcess,
  startBridge,
  startRuntime,
} from '@plantstore/http-suite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const deno = requireRuntime({ it }, 'deno', "Deno's request.signal", import.meta.url);
const cwd = fileURLToPath(new URL('..', import.meta.url));
const ABORTED = 'request signal aborted';

describe.skipIf(deno === undefined)(`request.signal on Deno ${deno?.version}`, () => {
  let issuer: TokenIssuer;
  let bridge: Bridge;
  let host: RuntimeProcess;
  let token: string;
  const store = memoryStore();
  const storeSignals: AbortSignal[] = [];
  const created: NewPlant[] = [];
  const rejected: PlantServiceError[] = [];
  const errors: PlantServiceError[] = [];

  // The memory store, keeping the signal the core hands it on each insert.
  const recording: PlantStore = {
    insert(plant, context) {
      storeSignals.push(context.signal);
      return store.insert(plant, context);
    },
  };

  beforeAll(async () => {
    issuer = await createTokenIssuer();
    bridge = await startBridge(
      {
        store: recording,
        onCreated: (plant) => void created.push(plant),
        onRejected: (error) => void rejected.push(error),
        onError: (error) => void errors.push(error),
      },
      { auth: { jwksUri: issuer.jwksUri, issuer: issuer.issuer, audience: issuer.audience } },
    );
    [host, token] = await Promise.all([
      startRuntime({
        binary: deno!.path,
        // Deno's default: the legacy abort, as most applications run it.
        args: ['run', '--allow-net=127.0.0.1', '--allow-env', 'src/signal-host.ts'],
        cwd,
        env: bridge.env,
      }),
      issuer.sign(),
    ]);
  }, 60_000);

  afterAll(async () => {
    await host?.stop();
    await bridge?.close();
    await issuer?.close();
  });

  const post = (body: string): Promise<Response> =>
    fetch(`${host.origin}/api/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  const abortsSeen = (): number => bridge.events.filter((event) => event === ABORTED).length;

  it('aborts request.signal after a successful create, and warns that this is legacy behaviour', async () => {
    const response = await post('{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"name":"Monstera","tag":"aroid"}');
    await bridge.waitFor(ABORTED);
    expect(host.output()).toContain('request.signal aborts on successful responses');
  });

  it('leaves the plant stored, onCreated called once and onError never, after the abort', async () => {
    await vi.waitFor(() => expect(created).toHaveLength(1));
    // Time for anything that listened to the abort to act on it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(store.get(9007199254740993n)).toMatchObject({
      id: 9007199254740993n,
      name: 'Monstera',
      tag: 'aroid',
    });
    expect(created).toEqual([{ id: 9007199254740993n, name: 'Monstera', tag: 'aroid' }]);
    expect(errors).toEqual([]);
    expect(rejected).toEqual([]);
    // The store's signal is the core's own (its time-out), not the request's.
    expect(storeSignals.map((signal) => signal.aborted)).toEqual([false]);
  });

  it('answers the next requests as usual: a replay 200, a conflict 409, a new plant 200', async () => {
    const replay = await post('{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}');
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe('{"name":"Monstera","tag":"aroid"}');
    const conflict = await post('{"id": 9007199254740993, "name": "Ivy"}');
    expect(conflict.status).toBe(409);
    await conflict.arrayBuffer();
    const next = await post('{"id": 2, "name": "Fern"}');
    expect(next.status).toBe(200);
    expect(await next.text()).toBe('{"name":"Fern"}');
    // Relayed back from the Deno process: more than waitFor's 1 s default on a busy machine.
    await vi.waitFor(() => expect(abortsSeen()).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    await vi.waitFor(() => expect(created).toHaveLength(2), { timeout: 10_000 });
    expect(created[1]).toEqual({ id: 2n, name: 'Fern' });
    expect(rejected.map((error) => error.code)).toEqual(['id_conflict']);
    expect(errors).toEqual([]);
    expect(store.size).toBe(2);
    expect(storeSignals.every((signal) => !signal.aborted)).toBe(true);
  });
});
