import { httpApiHeaders, restApiHeaders } from './event-headers';
import { isHttpApiEvent, type LambdaHttpEvent, type RestApiEvent } from './lambda-events';

/**
 * The `Request` of an API Gateway or Function URL event, as the fetch entry expects it: the method,
 * the path the function's routes see (a REST API's `path` is without the stage; an HTTP API's
 * `rawPath` under the `execute-api` domain starts with a named stage, removed here so both agree),
 * the query string, the headers, and the body as bytes (decoded from base64 when
 * `isBase64Encoded`), never parsed: an int64 id reaches the route digit for digit.
 *
 * @param event - a payload 2.0 or 1.0 event
 * @returns the request, its body unread
 * @throws TypeError when the event is neither (the function is wired to another trigger)
 * @example
 * ```ts
 * const response = await plants.fetch(requestOfEvent(event));
 * ```
 */
export function requestOfEvent(event: LambdaHttpEvent): Request {
  const http = isHttpApiEvent(event);
  if (http ? typeof event.rawPath !== 'string' : typeof event.httpMethod !== 'string') {
    throw new TypeError(
      'The event is not an API Gateway or Function URL HTTP event (payload format 2.0 or 1.0).',
    );
  }
  // An Application Load Balancer's event looks like 1.0, but its result does not: without its
  // multi-value setting it reads `headers` alone, and would answer without the route's headers.
  if (!http && event.requestContext != null && 'elb' in event.requestContext) {
    throw new TypeError(
      'The event comes from an Application Load Balancer, which this entry does not serve: put API Gateway or a Function URL in front of the function.',
    );
  }
  const method = http ? event.requestContext.http.method : event.httpMethod;
  const headers = http ? httpApiHeaders(event) : restApiHeaders(event);
  // 1.0's `path` comes decoded: a `?` or `#` in it is part of the path, not the start of a query.
  const path = (
    http
      ? withoutStage(event.rawPath, event.requestContext)
      : // An HTTP API set to 1.0 (`version: '1.0'`) puts the stage in `path`; a REST API does not.
        event.version === '1.0'
        ? withoutStage(event.path, event.requestContext ?? {})
        : event.path
  ).replace(/[?#]/gu, encodeURIComponent);
  const query = http ? (event.rawQueryString ?? '') : restApiQuery(event);
  const host = [headers.get('host'), event.requestContext?.domainName].find(isHost) ?? 'localhost';
  const url = `https://${host}${path}${query === '' ? '' : `?${query}`}`;
  const body = bodyOf(event, method);
  // The body is all there is: its length is the one the route checks against its limit.
  if (body === undefined) headers.delete('content-length');
  else headers.set('content-length', String(body.byteLength));
  return new Request(url, { method, headers, ...(body === undefined ? {} : { body }) });
}

// The route never reads the host (a DPoP proof's `htu` is checked against `publicUrl`), but the URL
// must parse: a `Host` field a client made up, or a placeholder domain, gives way to `localhost`.
const HOST = /^(?:[\w-]+(?:\.[\w-]+)*|\[[\da-f:.]+\])(?::\d{1,5})?$/iu;

function isHost(value: string | null | undefined): value is string {
  return typeof value === 'string' && HOST.test(value);
}

function bodyOf(event: LambdaHttpEvent, method: string): Uint8Array | undefined {
  const text = event.body;
  if (text === undefined || text === null || method === 'GET' || method === 'HEAD')
    return undefined;
  return event.isBase64Encoded === true
    ? Buffer.from(text, 'base64')
    : new TextEncoder().encode(text);
}

// An HTTP API's path under the `execute-api` domain starts with a named stage; under a custom
// domain name, and for the `$default` stage, it does not.
function withoutStage(
  path: string,
  {
    stage,
    domainName = '',
  }: { readonly stage?: string | undefined; readonly domainName?: string | undefined },
): string {
  if (stage === undefined || stage === '$default' || !domainName.includes('.execute-api.')) {
    return path;
  }
  const prefix = `/${stage}`;
  if (path === prefix) return '/';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path;
}

function restApiQuery(event: RestApiEvent): string {
  const query = new URLSearchParams();
  if (event.multiValueQueryStringParameters) {
    for (const [name, values] of Object.entries(event.multiValueQueryStringParameters)) {
      for (const value of values ?? []) query.append(name, value);
    }
  } else {
    for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
      if (value !== undefined) query.append(name, value);
    }
  }
  return query.toString();
}
