import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { nodeHeaderReader } from '../http/node-headers';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import type { PlantStore } from '../plant/store';
import type { PlantService } from './service';
import type { PlantServiceOptions } from './service-options';

/**
 * Makes the warm-up's own service: the route of `createPlantService`, publishing nothing on the
 * diagnostics channel and warming nothing itself.
 */
export type SampleServiceFactory = (options: PlantServiceOptions) => PlantService;

// Takes every plant and keeps none: the insert's own steps run, no user's store is ever called.
const NO_STORE: PlantStore = { insert: () => Promise.resolve({ created: true }) };
const SAMPLE_BODY = '{"id":9007199254740993,"name":"Monstera","tag":"aroid"}';
const SAMPLE_ISSUER = 'https://warm-up.invalid/';
const SAMPLE_AUDIENCE = 'https://warm-up.invalid/plants';
// The sample service's secret is public and guards nothing: only that service, which is made for
// one warm-up and then closed, ever accepts the token. Signed in advance, so that no signing code
// runs: a resource server never signs. Its claims: iss, aud, sub, scope, iat 0, no exp.
const SAMPLE_SECRET = 'plantstore-warm-up-throwaway-secret-not-a-key';
const SAMPLE_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzY29wZSI6InBsYW50czp3cml0ZSIsImlzcyI6Imh0dHBzOi8vd2FybS11cC5pbnZhbGlkLyIsImF1ZCI6Imh0dHBzOi8vd2FybS11cC5pbnZhbGlkL3BsYW50cyIsInN1YiI6Indhcm0tdXAiLCJpYXQiOjB9.71aMoidcMMs09hagMhzSVdI4wkePuqkI6ZxTNFb4poA';

// Once per process: compiled code is the process's, whichever service first ran it.
let warming: Promise<void> | undefined;
// The warm-up while its timer has not fired: `warmedUp()` starts it at once instead.
let pending:
  { readonly timer: ReturnType<typeof setTimeout>; readonly run: () => void } | undefined;

/**
 * Runs one sample request through a service of its own: the same route as the user's (credentials,
 * `jwtBearer`'s verification and cache, the content type, the strict body reader, validation, the
 * insert's time-out, the answer), on a public secret that only this service accepts and on a store
 * that keeps nothing. V8 compiles a function when it first runs it, and compiled code is shared by
 * every service of the process, so the first client no longer pays for compiling the route. No
 * service of the user's is touched: not its auth, key sets, store, hooks or diagnostics channel.
 *
 * @param sampleService - makes the warm-up's service from options
 * @returns when the sample request has been answered and its service closed; it never rejects
 * @example
 * ```ts
 * await warmUp((options) => createPlantService(options));
 * ```
 */
export async function warmUp(sampleService: SampleServiceFactory): Promise<void> {
  let service: PlantService | undefined;
  try {
    const auth = jwtBearer({
      secret: SAMPLE_SECRET,
      issuer: SAMPLE_ISSUER,
      audience: SAMPLE_AUDIENCE,
    });
    service = sampleService({ store: NO_STORE, auth });
    const bytes = new TextEncoder().encode(SAMPLE_BODY);
    // Shaped as the Node adapters hand requests over (headers read by `nodeHeaderReader`, the body
    // a Node stream), so the type feedback V8 keeps from the warm-up is the feedback of real
    // requests: a second kind of header reader at the route's call sites would leave them
    // polymorphic for good. The first verifies the token and waits for the body's events; the
    // second finds the token in the cache and its body already buffered, as most requests do.
    for (const buffered of [false, true]) {
      const req = nodeRequestOf(bytes, buffered);
      await service.handle({
        method: 'POST',
        path: '/plants',
        headers: nodeHeaderReader(req),
        body: req,
      });
    }
  } catch {
    // A warm-up that fails has only missed its purpose: the first request pays, as without it.
  } finally {
    await service?.close().catch(() => undefined);
  }
}

/**
 * A Node readable byte stream of `bytes` with the headers of an `IncomingMessage`; `complete` as
 * Node sets it once the parser has the whole body.
 */
function nodeRequestOf(bytes: Uint8Array, complete: boolean): IncomingMessage {
  const rawHeaders = [
    'Authorization',
    `Bearer ${SAMPLE_TOKEN}`,
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(bytes.length),
  ];
  const headers: Record<string, string> = {};
  for (let index = 0; index < rawHeaders.length; index += 2) {
    headers[(rawHeaders[index] as string).toLowerCase()] = rawHeaders[index + 1] as string;
  }
  const stream = new Readable({ read: () => undefined });
  stream.push(bytes);
  stream.push(null);
  return Object.assign(stream, { complete, rawHeaders, headers }) as unknown as IncomingMessage;
}

/**
 * Schedules {@link warmUp} for the next turn of the event loop, once per process, without keeping a
 * process alive that has nothing else to do.
 *
 * @param sampleService - makes the warm-up's service from options
 * @example
 * ```ts
 * scheduleWarmUp(sampleService); // in createPlantService
 * ```
 */
export function scheduleWarmUp(sampleService: SampleServiceFactory): void {
  if (warming !== undefined) return;
  let done: () => void = () => undefined;
  warming = new Promise((resolve) => {
    done = resolve;
  });
  const run = (): void => {
    pending = undefined;
    void warmUp(sampleService).then(done);
  };
  try {
    const timer = setTimeout(run, 0);
    if (typeof timer === 'object' && typeof timer.unref === 'function') timer.unref();
    pending = { timer, run };
  } catch {
    // Some runtimes refuse timers outside a request (Cloudflare Workers at module scope): there the
    // first request compiles the route, and a later service may try again.
    warming = undefined;
  }
}

/**
 * Resolves once the start-up warm-up has run, at once when none was scheduled; never rejects. A
 * warm-up still waiting for its timer starts now, so this depends on no timer (fake timers in a
 * host's tests) and keeps the process alive only through the warm-up's own work.
 *
 * @returns when the route has run once on the warm-up's sample request
 * @example
 * ```ts
 * await warmedUp(); // in PlantService.warmedUp
 * ```
 */
export function warmedUp(): Promise<void> {
  if (pending !== undefined) {
    clearTimeout(pending.timer);
    pending.run();
  }
  return warming ?? Promise.resolve();
}
