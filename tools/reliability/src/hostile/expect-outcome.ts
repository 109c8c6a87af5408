import type { MemoryStore, PlantServiceErrorCode } from '@plantstore/core';
import { expect } from 'vitest';
import type { Expectation } from './case';
import { SCOPE } from './identity';
import type { Outcome } from './run-case';

/** The status of every reason code a request can be refused with, from docs/reference/errors.md. */
export const STATUS_OF: Readonly<Partial<Record<PlantServiceErrorCode, number>>> = {
  authorization_malformed: 401,
  authorization_repeated: 400,
  body_empty: 400,
  body_aborted: 400,
  body_invalid_utf8: 400,
  body_not_json: 400,
  body_not_object: 400,
  body_too_deep: 400,
  body_duplicate_key: 400,
  body_forbidden_key: 400,
  body_lone_surrogate: 400,
  field_missing: 400,
  schema_mismatch: 400,
  id_not_integer: 400,
  id_out_of_range: 400,
  string_contains_nul: 400,
  token_missing: 401,
  token_malformed: 401,
  token_too_large: 401,
  token_expired: 401,
  token_not_yet_valid: 401,
  token_too_old: 401,
  signature_invalid: 401,
  algorithm_not_allowed: 401,
  issuer_mismatch: 401,
  audience_mismatch: 401,
  claim_missing: 401,
  claim_invalid: 401,
  key_not_found: 401,
  token_type_mismatch: 401,
  scope_insufficient: 403,
  body_timeout: 408,
  id_conflict: 409,
  body_too_large: 413,
  media_type_unsupported: 415,
  content_encoding_unsupported: 415,
};

const header = (outcome: Outcome, name: string): string => {
  const value = outcome.headers[name];
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
};

/**
 * What is wrong with an answer of the route, as sentences; empty when it carries the content type,
 * `Cache-Control: no-store`, `Vary: Authorization`, and for a failure the Error shape with `error`
 * equal to the status, a Bearer challenge on 401 and 403, `Connection: close` on 408 and 413, and
 * nowhere the token. Plain comparisons, cheap enough for every fuzz run.
 *
 * @param outcome - the answer
 * @param token - the token the request carried, never to be echoed
 * @returns the problems found
 */
export function contractProblems(outcome: Outcome, token?: string): string[] {
  const problems: string[] = [];
  const want = (ok: boolean, problem: string): void => void (ok || problems.push(problem));
  want(
    header(outcome, 'content-type') === 'application/json; charset=utf-8',
    'Content-Type is not JSON in UTF-8',
  );
  want(header(outcome, 'cache-control') === 'no-store', 'Cache-Control is not no-store');
  want(
    header(outcome, 'vary')
      .split(/\s*,\s*/)
      .includes('Authorization'),
    'Vary lacks Authorization',
  );
  if (token !== undefined && token.length > 0) {
    want(!outcome.text.includes(token), 'the body echoes the token');
    want(!JSON.stringify(outcome.headers).includes(token), 'a header echoes the token');
  }
  if (outcome.status === 200) return problems;
  let body: unknown;
  try {
    body = JSON.parse(outcome.text);
  } catch {
    body = undefined;
  }
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  want(Object.keys(record).sort().join() === 'error,message', 'the body is not {error, message}');
  want(record['error'] === outcome.status, 'error is not the status');
  want(typeof record['message'] === 'string', 'message is not a string');
  if (outcome.status === 401 || outcome.status === 403) {
    want(
      header(outcome, 'www-authenticate').startsWith('Bearer realm="plantstore"'),
      'no Bearer challenge',
    );
  }
  if (outcome.status === 408 || outcome.status === 413) {
    want(header(outcome, 'connection') === 'close', 'no Connection: close');
  }
  return problems;
}

/** The `WWW-Authenticate` `error` attribute a reason code calls for, if any. */
function challengeError(code: PlantServiceErrorCode): string | undefined {
  if (code === 'authorization_repeated') return 'invalid_request';
  if (code === 'token_missing') return undefined;
  if (code === 'scope_insufficient') return 'insufficient_scope';
  return STATUS_OF[code] === 401 ? 'invalid_token' : undefined;
}

/**
 * Asserts that an outcome is what its case expects: status, reason code, headers, body, and the
 * store (exactly the expected plant for a 200, untouched for a refusal). Never a 5xx, never an
 * error reaching `onError` or the host.
 *
 * @param outcome - what happened
 * @param expected - what the case says
 * @param store - the host's store
 * @param token - the token the request carried
 * @param alsoRejected - reason codes of pipelined requests on the same connection
 */
export function expectOutcome(
  outcome: Outcome,
  expected: Expectation,
  store: MemoryStore,
  token?: string,
  alsoRejected: readonly PlantServiceErrorCode[] = [],
): void {
  expect(outcome.status, 'no 5xx, ever').toBeLessThan(500);
  expect(outcome.errors, 'nothing reaches onError').toEqual([]);
  expect(outcome.created, 'onCreated once per plant stored').toBe(
    outcome.sizeAfter - outcome.sizeBefore,
  );
  for (const error of outcome.rejected) expect(error.status).toBeLessThan(500);
  expect(outcome.status).toBe(expected.status);
  if (expected.by === 'node') {
    // Node's parser answered: a bare response, none of the route's headers, nothing stored. Koa
    // reports the socket's parse error to `app.on('error')` when it broke a request in flight;
    // that is Koa's and Node's doing, and it must be nothing else.
    expect(outcome.headers['cache-control']).toBeUndefined();
    expect(outcome.sizeAfter).toBe(outcome.sizeBefore);
    for (const event of outcome.hostEvents) {
      expect(String((event as { code?: unknown }).code)).toMatch(/^HPE_/);
    }
    return;
  }
  expect(outcome.hostEvents, 'nothing reaches the host').toEqual([]);
  expect(contractProblems(outcome, token)).toEqual([]);
  if (expected.status === 200) {
    const { id, name, tag } = expected.stored;
    expect(outcome.rejected).toEqual([]);
    expect(outcome.text).toBe(JSON.stringify(tag === undefined ? { name } : { name, tag }));
    const stored = store.get(id);
    // The plant as stored, without the audit fields the core keeps beside it.
    const plant =
      stored === undefined
        ? undefined
        : {
            id: stored.id,
            name: stored.name,
            ...(stored.tag === undefined ? {} : { tag: stored.tag }),
          };
    expect(plant).toEqual(expected.stored);
    expect(outcome.sizeAfter - outcome.sizeBefore).toBeLessThanOrEqual(1);
    return;
  }
  expect(outcome.rejected.map((error) => error.code).sort()).toEqual(
    [expected.code, ...alsoRejected].sort(),
  );
  expect(outcome.sizeAfter, 'a refusal stores nothing').toBe(outcome.sizeBefore);
  const wanted = challengeError(expected.code);
  const challenge = String(outcome.headers['www-authenticate'] ?? '');
  if (wanted === undefined) expect(challenge).not.toMatch(/error=/);
  else expect(challenge).toContain(`error="${wanted}"`);
  // RFC 6750 §3: a token was sent and refused, so the challenge says why, in fixed words.
  if (wanted === 'invalid_token') expect(challenge).toMatch(/error_description="[^"\\]+"/);
  if (wanted === 'insufficient_scope') expect(challenge).toContain(`scope="${SCOPE}"`);
}
