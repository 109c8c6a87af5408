import { httpApiResult, restApiResult } from './event-result';
import { requestOfEvent } from './event-request';
import { isHttpApiEvent, type LambdaHttpEvent, type LambdaHttpResult } from './lambda-events';

// Longer than any invocation (15 minutes at most): the interval only holds the event loop open.
const HOLD_MS = 3_600_000;
const keepAlive = (): void => undefined;

/** A fetch handler: the route's `plants.fetch`, or an app's own that sends the route's requests to it. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A Lambda handler for API Gateway HTTP API, REST API and Function URL events. */
export type LambdaHandler = <Event extends LambdaHttpEvent>(
  event: Event,
) => Promise<LambdaHttpResult<Event>>;

/**
 * Turns a fetch handler into a Lambda function's handler: each event becomes a `Request` (body as
 * bytes, base64 decoded, repeated headers kept, the stage out of the path), the `Response` becomes
 * the result of the event's payload format. Nothing of the route's rules lives here: the service's
 * body limit answers 413 in the route's Error shape for any body Lambda lets through (6 MB per
 * invocation, base64 included).
 *
 * @param fetch - the route's fetch entry (`(request) => plants.fetch(request)`), or your own
 *   fetch handler that sends the route's requests to it
 * @returns the handler to export from the function
 * @throws TypeError when `fetch` is not a function
 * @example
 * ```ts
 * const plants = createPlantService({ basePath: '/api', store, auth: jwtBearer({ jwksUri, issuer, audience }) });
 * export const handler = lambdaHandler((request) => plants.fetch(request));
 * ```
 */
export function lambdaHandler(fetch: FetchHandler): LambdaHandler {
  if (typeof fetch !== 'function') {
    throw new TypeError(`lambdaHandler needs a fetch function, got ${typeof fetch}.`);
  }
  return async <Event extends LambdaHttpEvent>(event: Event) => {
    const request = requestOfEvent(event);
    // The route's body and store time-outs do not hold a process open (a server's socket does), and
    // a Lambda function has no server: a store that stalls without a socket of its own would empty
    // the event loop, and the runtime would end the invocation with no answer instead of the 503.
    const hold = setInterval(keepAlive, HOLD_MS);
    try {
      const response = await fetch(request);
      const result = isHttpApiEvent(event) ? httpApiResult(response) : restApiResult(response);
      return (await result) as LambdaHttpResult<Event>;
    } finally {
      clearInterval(hold);
    }
  };
}
