import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { SignJWT } from 'jose';
import { nodeBuiltin } from '../common/node-builtin';
import { nodeHeaderReader } from '../http/node-headers';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import type { PlantStore } from '../plant/store';
import type { PlantService } from './plant-service';
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

/**
 * Runs two sample requests through a service of its own: the same route as the user's (credentials,
 * `jwtBearer`'s verification and cache, the content type, the strict body reader, validation, the
 * insert's time-out, the answer), on a secret drawn for this one call and a store that keeps
 * nothing. V8 compiles a function when it first runs it, and compiled code is shared by every
 * service of the process, so the first client no longer pays for compiling the route. No service of
 * the user's is touched: not its auth, key sets, store, hooks or diagnostics channel. On a runtime
 * without `node:stream` (workerd without `nodejs_compat`, Vercel's Edge runtime) there are no Node
 * requests to shape, and nothing is run.
 *
 * @param sampleService - makes the warm-up's service from options
 * @returns when both sample requests have been answered and the service closed; it never rejects
 * @example
 * ```ts
 * await warmUp((options) => createPlantService(options)); // what service.warmUp() runs
 * ```
 */
export async function warmUp(sampleService: SampleServiceFactory): Promise<void> {
  const stream = nodeBuiltin('node:stream');
  if (stream === undefined) return;
  let service: PlantService | undefined;
  try {
    // No secret and no token is ever a literal: both are made here, for this call, and then dropped.
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const token = await new SignJWT({ scope: 'plants:write' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(SAMPLE_ISSUER)
      .setAudience(SAMPLE_AUDIENCE)
      .setSubject('warm-up')
      .setIssuedAt()
      .sign(secret);
    const auth = jwtBearer({ secret, issuer: SAMPLE_ISSUER, audience: SAMPLE_AUDIENCE });
    service = sampleService({ store: NO_STORE, auth, logger: false });
    const bytes = new TextEncoder().encode(SAMPLE_BODY);
    // Shaped as the Node adapters hand requests over (headers read by `nodeHeaderReader`, the body
    // a Node stream), so the type feedback V8 keeps from the warm-up is the feedback of real
    // requests: a second kind of header reader at the route's call sites would leave them
    // polymorphic for good. The first verifies the token and waits for the body's events; the
    // second finds the token in the cache and its body already buffered, as most requests do.
    for (const buffered of [false, true]) {
      const req = nodeRequestOf(stream.Readable, token, bytes, buffered);
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
function nodeRequestOf(
  ReadableStream: typeof Readable,
  token: string,
  bytes: Uint8Array,
  complete: boolean,
): IncomingMessage {
  const rawHeaders = [
    'Authorization',
    `Bearer ${token}`,
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(bytes.length),
  ];
  const headers: Record<string, string> = {};
  for (let index = 0; index < rawHeaders.length; index += 2) {
    headers[(rawHeaders[index] as string).toLowerCase()] = rawHeaders[index + 1] as string;
  }
  const stream = new ReadableStream({ read: () => undefined });
  stream.push(bytes);
  stream.push(null);
  return Object.assign(stream, { complete, rawHeaders, headers }) as unknown as IncomingMessage;
}
