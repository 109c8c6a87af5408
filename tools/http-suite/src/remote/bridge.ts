import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPlantServiceError, type PlantServiceOptions, PlantServiceError } from '@plantstore/core';
import type { ContractSetup } from '../contract-setup';
import type * as Wire from './wire';
import { BRIDGE_SETTINGS, BRIDGE_URL, fromWirePlant, fromWireRecord, toWirePlant } from './wire';

/** The test-process end of a route running in another runtime (see `bridgedService`). */
export interface Bridge {
  /** What the child process needs in its environment to reach the bridge. */
  readonly env: Readonly<Record<string, string>>;
  /** What the child reported with `report(event)`, in order. */
  readonly events: readonly string[];
  /** Resolves once the child has reported `event` (at once if it already has). */
  waitFor(event: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** An error as the route in the child process handed it to a hook: same status, code and message. */
class ReportedError extends PlantServiceError {
  override readonly name = 'ReportedError';

  constructor(error: Wire.WireError) {
    super(error.status, error.code, error.message);
  }
}

const HOOKS: readonly Wire.HookName[] = ['onCreated', 'onRejected', 'onError'];

/**
 * Serves the store and the hooks of `options` to a route that runs in a child process, on 127.0.0.1.
 * A store call that the child gives up on (its store time-out) aborts the store's signal here.
 *
 * @param options - the options the contract suite built, store and hooks included (`auth` is not
 *   used: the child builds its own)
 * @param setup - the JSON-safe auth the child builds its own `jwtBearer` from
 * @returns the bridge, listening
 */
export async function startBridge(
  options: Omit<PlantServiceOptions, 'auth'>,
  setup: ContractSetup,
): Promise<Bridge> {
  const events: string[] = [];
  const waiters: { event: string; resolve: () => void }[] = [];

  const insert = async (
    call: Wire.WireInsert,
    signal: AbortSignal,
  ): Promise<Wire.WireInsertAnswer> => {
    try {
      const result = await options.store.insert(fromWireRecord(call.plant), {
        principal: call.principal,
        signal,
      });
      return result.created
        ? { created: true }
        : { created: false, existing: toWirePlant(result.existing) };
    } catch (error) {
      const status = isPlantServiceError(error) ? error.status : 500;
      return {
        failed: {
          unavailable: status === 503,
          status,
          code: isPlantServiceError(error) ? error.code : 'store_failed',
          message: error instanceof Error ? error.message : String(error),
        },
      };
    }
  };

  const hook = (call: Wire.WireHookCall): void => {
    const context = call.context;
    if (call.hook === 'onCreated' && call.plant !== undefined) {
      void options.onCreated?.(fromWirePlant(call.plant), context);
    } else if (call.error !== undefined) {
      void options[call.hook as 'onRejected' | 'onError']?.(new ReportedError(call.error), context);
    }
  };

  const server = createServer((req, res) => {
    void readJson(req).then(async (body) => {
      if (req.url === '/insert') {
        const aborted = new AbortController();
        // The child gave up on this call (its store time-out): the store's signal fires, as in-process.
        res.once('close', () => {
          if (!res.writableFinished) aborted.abort(new Error('the route stopped waiting'));
        });
        return reply(res, await insert(body as Wire.WireInsert, aborted.signal));
      }
      if (req.url === '/hook') hook(body as Wire.WireHookCall);
      if (req.url === '/event') {
        const { event } = body as Wire.WireEvent;
        events.push(event);
        for (const waiter of waiters.filter((candidate) => candidate.event === event)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      return reply(res, {});
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });

  const settings: Wire.WireSettings = {
    auth: setup.auth,
    limits: {
      ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      ...(options.bodyTimeout === undefined ? {} : { bodyTimeout: options.bodyTimeout }),
      ...(options.storeTimeout === undefined ? {} : { storeTimeout: options.storeTimeout }),
      ...(options.retryAfter === undefined ? {} : { retryAfter: options.retryAfter }),
      ...(options.realm === undefined ? {} : { realm: options.realm }),
      ...(options.strictRouting === undefined ? {} : { strictRouting: options.strictRouting }),
      ...(options.caseSensitiveRouting === undefined
        ? {}
        : { caseSensitiveRouting: options.caseSensitiveRouting }),
      ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
      ...(options.clientCertificateHeader === undefined
        ? {}
        : { clientCertificateHeader: options.clientCertificateHeader }),
      ...(options.resourceMetadata === undefined
        ? {}
        : { resourceMetadata: options.resourceMetadata }),
      // A tenant function cannot cross to the other runtime; the contract's cases name a claim.
      ...(typeof options.tenant === 'string' ? { tenant: options.tenant } : {}),
    },
    hooks: HOOKS.filter((name) => options[name] !== undefined),
  };

  return {
    env: {
      [BRIDGE_URL]: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      [BRIDGE_SETTINGS]: JSON.stringify(settings),
    },
    events,
    waitFor: (event, timeoutMs = 5_000) =>
      events.includes(event)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`the child did not report ${event} within ${timeoutMs} ms`)),
              timeoutMs,
            );
            waiters.push({ event, resolve: () => (clearTimeout(timer), resolve()) });
          }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

function reply(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
