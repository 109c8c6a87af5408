import type { HttpApiResult, RestApiResult } from './lambda-events';

// Fields of a connection, which the function does not have: API Gateway has read the whole request
// and keeps its own connections (a REST API would pass `Connection` on as x-amzn-Remapped-Connection).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

// Text that API Gateway may carry as it is; any other body travels in base64, byte for byte.
const TEXT = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript)\b)/iu;

async function bodyOf(response: Response): Promise<{ body: string; isBase64Encoded: boolean }> {
  if (response.body === null) return { body: '', isBase64Encoded: false };
  const type = response.headers.get('content-type') ?? '';
  if (TEXT.test(type) && !response.headers.has('content-encoding')) {
    return { body: await response.text(), isBase64Encoded: false };
  }
  return {
    body: Buffer.from(await response.arrayBuffer()).toString('base64'),
    isBase64Encoded: true,
  };
}

/**
 * The result of a 2.0 event (HTTP API, Function URL): the status, the headers (a repeated one joined
 * with commas, as `Headers` joins it; no `Connection`), each `Set-Cookie` in `cookies`, and the body.
 *
 * @param response - the route's or the app's answer
 * @returns the result for Lambda
 */
export async function httpApiResult(response: Response): Promise<HttpApiResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !HOP_BY_HOP.has(name)) headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length > 0 ? { cookies } : {}),
    ...(await bodyOf(response)),
  };
}

/**
 * The result of a 1.0 event (REST API): the status, every header as a list (`Set-Cookie` fields
 * apart; no `Connection`), and the body.
 *
 * @param response - the route's or the app's answer
 * @returns the result for Lambda
 */
export async function restApiResult(response: Response): Promise<RestApiResult> {
  const multiValueHeaders: Record<string, string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !HOP_BY_HOP.has(name)) multiValueHeaders[name] = [value];
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) multiValueHeaders['set-cookie'] = cookies;
  return { statusCode: response.status, multiValueHeaders, ...(await bodyOf(response)) };
}
