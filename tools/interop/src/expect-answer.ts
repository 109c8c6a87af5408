import type { Reply } from '@plantstore/http-suite';
import { expect } from 'vitest';

/**
 * Asserts an answer of the route: its status, its JSON body exactly, and the headers every answer
 * carries (`Content-Type`, `Cache-Control: no-store`, `Vary: Authorization`, RFC 6750 §5.3).
 *
 * @param reply - what came back
 * @param status - the expected status
 * @param body - the expected body, parsed
 */
export function expectAnswer(reply: Reply, status: number, body: unknown): void {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(reply.headers['cache-control']).toBe('no-store');
  expect(reply.headers['vary']).toBe('Authorization');
  expect(reply.json).toStrictEqual(body);
}

/**
 * Asserts a 401 `invalid_token` answer: the body and the `WWW-Authenticate` challenge with the
 * description the core gives for the reason.
 *
 * @param reply - what came back
 * @param description - the challenge's `error_description`
 */
export function expectInvalidToken(reply: Reply, description: string): void {
  expectAnswer(reply, 401, {
    error: 401,
    message: `The bearer token is not valid: ${description}`,
  });
  expect(reply.headers['www-authenticate']).toBe(
    `Bearer realm="plantstore", error="invalid_token", error_description="${description}"`,
  );
}

/**
 * Asserts a 503 answer: the generic body, `Retry-After`, and no challenge (the token was not judged).
 *
 * @param reply - what came back
 * @param retryAfter - the expected `Retry-After`, in seconds
 */
export function expectUnavailable(reply: Reply, retryAfter: string): void {
  expectAnswer(reply, 503, {
    error: 503,
    message: 'The service is temporarily unavailable; retry later.',
  });
  expect(reply.headers['retry-after']).toBe(retryAfter);
  expect(reply.headers['www-authenticate']).toBeUndefined();
}
