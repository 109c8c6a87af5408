import type { PlantAnswer } from '../http/request';

// The `Headers` of each frozen (shared) header record, built once: Bun copies a `Headers` into a
// Response in half the time of a record. A Response fills its own list from it, so none is shared.
const built = new WeakMap<object, Headers>();

/**
 * The Web `Response` of an answer, for the fetch entry.
 *
 * @param answer - the core's answer
 * @param method - the request's method: a HEAD answer has no body
 * @returns the response
 * @example
 * ```ts
 * return webResponse(await service.handle(request), 'POST');
 * ```
 */
export function webResponse(answer: PlantAnswer, method: string): Response {
  const { headers } = answer;
  let init: Headers | Readonly<Record<string, string>> = headers;
  if (Object.isFrozen(headers)) {
    let shared = built.get(headers);
    if (shared === undefined) built.set(headers, (shared = new Headers(headers)));
    init = shared;
  }
  return new Response(method === 'HEAD' ? null : answer.body, {
    status: answer.status,
    headers: init,
  });
}
