import { bridgedService } from '@plantstore/http-suite/bridged';
import { notFound } from './not-found';

// The endpoints under src/routes/contract/ and src/routes/.well-known/ are the HTTP contract's host,
// in the same build as the example so that it is built once: sveltekit.test.ts starts `node build`
// with the bridge's environment, and the suite's store, tokens and hooks reach the route through it.
// Without that environment (the example as you run it) they answer the app's 404.

/**
 * The plants route of the contract host, built from the bridge's environment.
 *
 * @param basePath - where its route file sits (`/contract/api`)
 * @returns a route handler for every method the route answers
 * @example
 * ```ts
 * export const POST = contractRoute('/contract/api');
 * ```
 */
export function contractRoute(basePath: string): (request: Request) => Promise<Response> {
  // Built when the route file loads, and the bridge greeted at once: the first store call then finds
  // a warm connection however loaded the machine is (some cases give the store 100 ms).
  const bridged =
    process.env['PLANTSTORE_BRIDGE_URL'] === undefined
      ? undefined
      : bridgedService(process.env, basePath);
  // A greeting that fails changes nothing: the first store call would fail the same way, and say so.
  bridged?.report(`loaded ${basePath}`).catch(() => undefined);
  return async (request) => {
    if (bridged === undefined) return notFound(request);
    const response = await bridged.service.fetch(request);
    await bridged.settled(); // the suite reads hook calls as soon as it has the answer
    return response;
  };
}

/**
 * The contract host's own answer to a request that is not the route's, `host:<METHOD> <path>`.
 *
 * @param request - the request passed on
 * @returns 200 with that text
 */
export function passedOn(request: Request): Response {
  if (process.env['PLANTSTORE_BRIDGE_URL'] === undefined) return notFound(request);
  return new Response(`host:${request.method} ${new URL(request.url).pathname}`);
}
