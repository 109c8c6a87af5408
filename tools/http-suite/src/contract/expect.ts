import { expect } from 'vitest';
import type { Reply } from '../client/send';

/** The headers every answer of the route carries, and the Error shape. */
export function expectError(reply: Reply, status: number, message?: string | RegExp): void {
  expect(reply.status).toBe(status);
  expectRouteHeaders(reply);
  const body = reply.json as { error: unknown; message: unknown };
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(status);
  expect(typeof body.message).toBe('string');
  if (message !== undefined) expect(body.message).toMatch(message);
}

/** `Content-Type`, `Cache-Control: no-store` and `Vary: Authorization` (RFC 6750 §5.3). */
export function expectRouteHeaders(reply: Reply): void {
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(reply.headers['cache-control']).toBe('no-store');
  expect(String(reply.headers.vary).split(/\s*,\s*/)).toContain('Authorization');
}

/** The headers the contract names; everything else (Date, X-Powered-By, Keep-Alive) is the host's. */
export const CONTRACT_HEADERS = [
  'content-type',
  'cache-control',
  'vary',
  'www-authenticate',
  'retry-after',
  'connection',
  // A 200 that created nothing says so (issue #49): every adapter must pass it on.
  'idempotent-replayed',
] as const;

/**
 * What the contract names of a reply (status, its headers, body), to compare two entries' replies
 * or a reply with the exact answer a case expects.
 *
 * @param reply - a reply of `send`
 * @returns the comparable part
 * @example
 * expect(contractView(await send(koa.url, request))).toEqual(contractView(await send(express.url, request)));
 */
export function contractView(reply: Reply): Record<string, unknown> {
  const headers = Object.fromEntries(CONTRACT_HEADERS.map((name) => [name, reply.headers[name]]));
  // Node adds `keep-alive` where nothing asked to close; only an explicit close is the route's.
  if (headers['connection'] !== 'close') delete headers['connection'];
  return { status: reply.status, headers, body: reply.text };
}
