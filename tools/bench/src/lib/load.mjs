// Drives a server with autocannon: POST /plants, every request a fresh id, one token reused.
import autocannon from 'autocannon';

let nextId = 1_000_000;

/** A plant body with an id no request of this run has used. */
export function freshBody() {
  nextId += 1;
  return `{"id":${nextId},"name":"Monstera","tag":"aroid"}`;
}

/**
 * Runs autocannon against `POST {url}/plants`.
 *
 * @param {object} options
 * @param {string} options.url
 * @param {number} options.seconds
 * @param {number} options.connections
 * @param {() => string} options.token - the bearer token of the next request
 * @param {() => string} [options.body] - the body of the next request; default a fresh id each time
 * @param {boolean} [options.sameToken] - true when `token` always answers the same (headers built once)
 * @param {() => Record<string, string>} [options.headers] - every request's own headers (DPoP proofs),
 *   instead of the bearer token's
 */
export async function load({
  url,
  seconds,
  connections,
  token,
  body = freshBody,
  sameToken = true,
  headers: nextHeaders,
}) {
  const headers =
    nextHeaders === undefined
      ? { authorization: `Bearer ${token()}`, 'content-type': 'application/json' }
      : nextHeaders();
  const setupRequest =
    nextHeaders !== undefined
      ? (request) => ({ ...request, headers: nextHeaders(), body: body() })
      : sameToken
        ? (request) => ({ ...request, body: body() })
        : (request) => ({
            ...request,
            headers: { ...headers, authorization: `Bearer ${token()}` },
            body: body(),
          });
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{ method: 'POST', path: '/plants', headers, setupRequest }],
  });
  const answered = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  return {
    answered,
    perSecond: answered / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.keys(result.statusCodeStats ?? {}),
  };
}
