import {
  jwtBearer,
  memoryStore,
  type MemoryStore,
  type PlantServiceOptions,
  type PlantStore,
  type PlantServiceError,
  ServiceUnavailableError,
} from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Outgoing, postPlant, type Reply, send } from './client/send';
import { describeDpopContract } from './contract-dpop';
import type { ContractAuth, ContractIssuer, ContractSetup } from './contract-setup';
import type { ContractHost, ContractTarget } from './hosts/target';

const SCOPE = 'plants:write';
const CHALLENGE = 'Bearer realm="plantstore"';
const INT64_MAX = '9223372036854775807';
const INT64_MIN = '-9223372036854775808';

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
const CONTRACT_HEADERS = [
  'content-type',
  'cache-control',
  'vary',
  'www-authenticate',
  'retry-after',
  'connection',
] as const;

/**
 * What the contract names of a reply (status, its headers, body), to compare two entries' replies.
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

/**
 * Registers the HTTP contract of the route (docs/errors.md and the README's route section) with vitest, to run against one
 * entry: the same cases for fetch, node:http, Express 4 and 5, Koa 2 and 3, Bun, Deno and Hono, DPoP
 * and the RFC 9728 metadata included (on a second host of the entry, see `describeDpopContract`).
 *
 * @param name - the entry's name
 * @param target - how to start it
 */
export function describeHttpContract(name: string, target: ContractTarget): void {
  describe(`HTTP contract: ${name}`, () => {
    let issuer: TokenIssuer;
    let store: MemoryStore;
    let host: ContractHost;
    let token: string;
    const rejected: PlantServiceError[] = [];
    const errors: PlantServiceError[] = [];
    let nextId = 1000;
    const id = (): number => nextId++;

    const setup = (): ContractSetup => ({
      auth: {
        jwksUri: issuer.jwksUri,
        issuer: issuer.issuer,
        audience: issuer.audience,
        requiredScopes: [SCOPE],
      },
    });
    const auth = () => jwtBearer(setup().auth);

    beforeAll(async () => {
      issuer = await createTokenIssuer();
      store = memoryStore();
      host = await target.start(
        {
          store,
          auth: auth(),
          bodyTimeout: 300,
          onRejected: (error) => void rejected.push(error),
          onError: (error) => void errors.push(error),
        },
        setup(),
      );
      token = await issuer.sign({ scope: SCOPE });
    });

    afterAll(async () => {
      await host?.close();
      await issuer?.close();
    });

    const post = (body: string | Uint8Array, extra: Outgoing = {}): Promise<Reply> =>
      postPlant(host.url, token, body, extra);

    describe('200', () => {
      it('creates a plant and answers 200 with the plant without its id', async () => {
        const plantId = id();
        const reply = await post(`{"id":${plantId},"name":"Monstera","tag":"aroid"}`);
        expect(reply.status).toBe(200);
        expectRouteHeaders(reply);
        expect(reply.text).toBe('{"name":"Monstera","tag":"aroid"}');
        expect(store.get(BigInt(plantId))).toEqual({
          id: BigInt(plantId),
          name: 'Monstera',
          tag: 'aroid',
        });
      });

      it('answers without a tag when the plant has none', async () => {
        const reply = await post(`{"id":${id()},"name":"Fern"}`);
        expect(reply.status).toBe(200);
        expect(reply.text).toBe('{"name":"Fern"}');
      });

      it('ignores and does not store other properties', async () => {
        const plantId = id();
        const reply = await post(
          `{"id":${plantId},"name":"Ivy","colour":"green","nested":{"a":[1,2]}}`,
        );
        expect(reply.status).toBe(200);
        expect(Object.keys(store.get(BigInt(plantId)) ?? {})).toEqual(['id', 'name']);
      });

      it('keeps 9007199254740993 and both int64 ends exact from the bytes to the store', async () => {
        for (const text of ['9007199254740993', INT64_MAX, INT64_MIN]) {
          const reply = await post(`{"id":${text},"name":"Exact"}`);
          expect(reply.status).toBe(200);
          expect(store.get(BigInt(text))?.name).toBe('Exact');
        }
      });

      it('accepts 1.0, 1e2 and -0 as integers', async () => {
        for (const [text, value] of [
          ['77001.0', 77001n],
          ['7.7002e4', 77002n],
          ['-0', 0n],
        ] as const) {
          const reply = await post(`{"id":${text},"name":"By value"}`);
          expect(reply.status).toBe(200);
          expect(store.get(value)?.name).toBe('By value');
        }
      });

      it('accepts a charset=utf-8 parameter and one leading BOM', async () => {
        const reply = await post(`\ufeff{"id":${id()},"name":"Bom"}`, {
          headers: { 'content-type': 'application/json; charset=UTF-8' },
        });
        expect(reply.status).toBe(200);
      });

      it('answers a replay of the same plant 200 and stores it once', async () => {
        const body = `{"id":${id()},"name":"Replay","tag":"t"}`;
        const before = store.size;
        expect((await post(body)).status).toBe(200);
        const again = await post(body);
        expect(again.status).toBe(200);
        expect(again.text).toBe('{"name":"Replay","tag":"t"}');
        expect(store.size).toBe(before + 1);
      });
    });

    describe('400', () => {
      it('refuses a body that is not JSON', async () => {
        expectError(await post('{"id":1,'), 400, /not valid JSON/);
        expect(rejected.at(-1)?.code).toBe('body_not_json');
      });

      it('refuses JSON that is not an object', async () => {
        expectError(await post('[1,2]'), 400);
        expect(rejected.at(-1)?.code).toBe('body_not_object');
      });

      it('refuses a body that fails the schema, naming every offending field and type', async () => {
        const reply = await post('{"id":"12","name":5,"tag":null}');
        expectError(reply, 400);
        const { message } = reply.json as { message: string };
        expect(message).toMatch(/id: .*received a string/);
        expect(message).toMatch(/name: .*received an integer/);
        expect(message).toMatch(/tag: .*received null/);
        expect(message).not.toContain('12');
      });

      it('refuses a missing name', async () => {
        expectError(await post(`{"id":${id()}}`), 400, /name/);
        expect(rejected.at(-1)?.code).toBe('field_missing');
      });

      it('refuses ids out of the int64 range and fractions, and stores nothing', async () => {
        const before = store.size;
        for (const text of [
          '9223372036854775808',
          '-9223372036854775809',
          '1e19',
          '1.5',
          'true',
          'null',
        ]) {
          expectError(await post(`{"id":${text},"name":"Out"}`), 400);
        }
        expect(store.size).toBe(before);
      });

      it('refuses duplicate keys, __proto__ and constructor keys, and nesting deeper than 64', async () => {
        expectError(await post(`{"id":${id()},"name":"a","name":"b"}`), 400);
        expect(rejected.at(-1)?.code).toBe('body_duplicate_key');
        expectError(await post(`{"id":${id()},"name":"a","__proto__":{"x":1}}`), 400);
        expect(rejected.at(-1)?.code).toBe('body_forbidden_key');
        expectError(await post(`{"id":${id()},"name":"a","x":{"constructor":1}}`), 400);
        const deep = `${'['.repeat(64)}${']'.repeat(64)}`;
        expectError(await post(`{"id":${id()},"name":"a","x":${deep}}`), 400);
        expect(rejected.at(-1)?.code).toBe('body_too_deep');
      });

      it('refuses lone surrogates, U+0000 and invalid UTF-8', async () => {
        expectError(await post(`{"id":${id()},"name":"\\ud800"}`), 400);
        expectError(await post(`{"id":${id()},"name":"a\\u0000b"}`), 400);
        expect(rejected.at(-1)?.code).toBe('string_contains_nul');
        const bytes = Buffer.concat([
          Buffer.from(`{"id":${id()},"name":"`),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('"}'),
        ]);
        expectError(await post(bytes), 400);
        expect(rejected.at(-1)?.code).toBe('body_invalid_utf8');
      });

      it('refuses an empty body', async () => {
        expectError(await post(''), 400);
        expect(rejected.at(-1)?.code).toBe('body_empty');
      });

      it('answers repeated Authorization headers 400 invalid_request', async () => {
        const reply = await post(`{"id":${id()},"name":"a"}`, {
          // Capitalised: Node's typings allow an array (sent as two header lines) only by index.
          headers: { Authorization: [`Bearer ${token}`, `Bearer ${token}`] },
        });
        expectError(reply, 400);
        expect(reply.headers['www-authenticate']).toMatch(/error="invalid_request"/);
      });
    });

    describe('401 and 403', () => {
      // No bearer credentials at all: a bare challenge. Bearer credentials that are not one
      // b64token: invalid_token. Either way a 401, so clients start a sign-in.
      const MALFORMED =
        /^Bearer realm="plantstore", error="invalid_token", error_description="[^"]+"$/;
      it.each([
        ['an empty field', '', 'token_missing'],
        ['another scheme', 'Basic dXNlcjpwYXNz', 'token_missing'],
        ['Bearer glued to the token', 'Bearerabc.def.ghi', 'token_missing'],
        ['Bearer with no token', 'Bearer', 'authorization_malformed'],
        ['two tokens', 'Bearer abc def', 'authorization_malformed'],
        ['a quoted token', 'Bearer "abc"', 'authorization_malformed'],
        ['a comma list', 'Bearer abc, Basic x', 'authorization_malformed'],
      ])('answers %s 401 (%j → %s)', async (_c, value, code) => {
        const reply = await post(`{"id":${id()},"name":"a"}`, {
          headers: { authorization: value },
        });
        expectError(reply, 401);
        const challenge = reply.headers['www-authenticate'];
        if (code === 'token_missing') expect(challenge).toBe(CHALLENGE);
        else expect(challenge).toMatch(MALFORMED);
        expect(rejected.at(-1)?.code).toBe(code);
      });

      it('answers a request without a token 401 with a bare Bearer challenge', async () => {
        const reply = await send(host.url, {
          body: '{}',
          headers: { 'content-type': 'application/json' },
        });
        expectError(reply, 401);
        expect(reply.headers['www-authenticate']).toBe(CHALLENGE);
        expect(rejected.at(-1)?.code).toBe('token_missing');
      });

      it('answers an unauthenticated request without reading its body', async () => {
        const reply = await send(host.url, {
          headers: { 'content-type': 'application/json', 'content-length': '1000000' },
          stallAfter: '{"id":1,',
        });
        expectError(reply, 401);
      });

      it('answers a token that fails verification 401 invalid_token without echoing it', async () => {
        const expired = await issuer.sign({ scope: SCOPE }, { expiresIn: -60 });
        const reply = await post(`{"id":${id()},"name":"a"}`, {
          headers: { authorization: `Bearer ${expired}` },
        });
        expectError(reply, 401);
        expect(reply.headers['www-authenticate']).toMatch(
          /^Bearer realm="plantstore", error="invalid_token", error_description="[^"]+"$/,
        );
        expect(reply.text).not.toContain(expired.split('.')[1]);
        expect(rejected.at(-1)?.code).toBe('token_expired');
      });

      it('answers a token with another audience 401 audience_mismatch', async () => {
        const other = await issuer.sign({ scope: SCOPE, aud: 'https://elsewhere.example' });
        expectError(
          await post(`{"id":${id()},"name":"a"}`, {
            headers: { authorization: `Bearer ${other}` },
          }),
          401,
        );
        expect(rejected.at(-1)?.code).toBe('audience_mismatch');
      });

      it('answers a valid token without the required scope 403 insufficient_scope', async () => {
        const reader = await issuer.sign({ scope: 'plants:read' });
        const reply = await post(`{"id":${id()},"name":"a"}`, {
          headers: { authorization: `Bearer ${reader}` },
        });
        expectError(reply, 403);
        expect(reply.headers['www-authenticate']).toMatch(/error="insufficient_scope"/);
        expect(reply.headers['www-authenticate']).toMatch(/scope="plants:write"/);
      });
    });

    describe('408, 409, 413, 415', () => {
      it('answers 408 when the body does not arrive within the read time-out', async () => {
        const reply = await send(host.url, {
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': '40',
          },
          stallAfter: '{"id":1,',
        });
        expectError(reply, 408);
      });

      it('answers 409 for an existing id with other content, and changes nothing', async () => {
        const plantId = id();
        await post(`{"id":${plantId},"name":"First","tag":"a"}`);
        const reply = await post(`{"id":${plantId},"name":"Second","tag":"a"}`);
        expectError(reply, 409);
        expect(reply.text).not.toContain('First');
        expect(store.get(BigInt(plantId))?.name).toBe('First');
        expectError(await post(`{"id":${plantId},"name":"First"}`), 409);
      });

      it('answers 413 for a body over 16 KiB, declared or streamed', async () => {
        const big = `{"id":${id()},"name":"${'x'.repeat(16_384)}"}`;
        expectError(await post(big), 413);
        expectError(await post(big, { headers: { 'transfer-encoding': 'chunked' } }), 413);
        expect(rejected.at(-1)?.code).toBe('body_too_large');
      });

      it('answers 415 for another media type, another charset, none, or a compressed body', async () => {
        const body = `{"id":${id()},"name":"a"}`;
        for (const contentType of [
          'text/plain',
          'application/json; charset=latin1',
          'application/jsonx',
        ]) {
          const reply = await post(body, { headers: { 'content-type': contentType } });
          expectError(reply, 415);
          // RFC 9110 §15.5.16: say what would have been accepted.
          expect(reply.headers['accept']).toBe('application/json');
        }
        const none = await send(host.url, { body, headers: { authorization: `Bearer ${token}` } });
        expectError(none, 415);
        const gzip = await post(body, { headers: { 'content-encoding': 'gzip' } });
        expectError(gzip, 415);
        expect(gzip.headers['accept-encoding']).toBe('identity');
        expect(rejected.at(-1)?.code).toBe('content_encoding_unsupported');
      });
    });

    describe('500 and 503', () => {
      const startWith = async (storeOf: PlantStore, extra: Partial<PlantServiceOptions> = {}) =>
        target.start({ store: storeOf, auth: auth(), storeTimeout: 100, ...extra }, setup());

      it('answers 500 with a generic message when the store throws, and reports it to onError', async () => {
        const seen: PlantServiceError[] = [];
        const failing = await startWith(
          { insert: () => Promise.reject(new Error('SELECT secret FROM internals')) },
          { onError: (error) => void seen.push(error) },
        );
        try {
          const reply = await postPlant(failing.url, token, `{"id":${id()},"name":"a"}`);
          expectError(reply, 500);
          expect(reply.text).not.toContain('SELECT');
          expect(seen.map((error) => error.code)).toEqual(['store_failed']);
        } finally {
          await failing.close();
        }
      });

      it('answers 503 with Retry-After when the store times out or is unavailable', async () => {
        const hanging = await startWith({ insert: () => new Promise(() => undefined) });
        const down = await startWith({
          insert: () =>
            Promise.reject(new ServiceUnavailableError('store_unavailable', 'connection refused')),
        });
        try {
          for (const running of [hanging, down]) {
            const reply = await postPlant(running.url, token, `{"id":${id()},"name":"a"}`);
            expectError(reply, 503);
            expect(reply.headers['retry-after']).toBe('5');
            expect(reply.text).not.toContain('connection refused');
          }
        } finally {
          await Promise.all([hanging.close(), down.close()]);
        }
      });

      it('answers 503, never 401, when the key set cannot be fetched', async () => {
        const idp = await createTokenIssuer();
        const idpAuth = { jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience };
        const unreachable = await target.start(
          { store: memoryStore(), auth: jwtBearer(idpAuth) },
          { auth: idpAuth },
        );
        try {
          const signed = await idp.sign();
          idp.outage('down');
          const reply = await postPlant(unreachable.url, signed, `{"id":${id()},"name":"a"}`);
          expectError(reply, 503);
          expect(reply.headers['retry-after']).toMatch(/^\d+$/);
        } finally {
          await unreachable.close();
          await idp.close();
        }
      });
    });

    describe('several issuers', () => {
      it("accepts each issuer's tokens, refuses an unknown issuer 401, and answers 503 only for the issuer whose key set is down", async () => {
        const [tenant, down] = await Promise.all([
          createTokenIssuer({ algorithm: 'ES256', audience: 'https://tenant.example' }),
          createTokenIssuer(),
        ]);
        const entry = (idp: TokenIssuer): ContractIssuer => ({
          issuer: idp.issuer,
          jwksUri: idp.jwksUri,
          audience: idp.audience,
        });
        const severalAuth: ContractAuth = {
          issuers: [entry(issuer), entry(tenant), entry(down)],
          requiredScopes: [SCOPE],
        };
        down.outage('down');
        const several = await target.start(
          { store: memoryStore(), auth: jwtBearer(severalAuth) },
          { auth: severalAuth },
        );
        try {
          const body = () => `{"id":${id()},"name":"a"}`;
          expect((await postPlant(several.url, token, body())).status).toBe(200);
          const tenantToken = await tenant.sign({ scope: SCOPE });
          expect((await postPlant(several.url, tenantToken, body())).status).toBe(200);
          // A token naming the tenant, signed by the other issuer's key: only the tenant's keys apply.
          // Issued before the tenant's keys were fetched, so no refetch for its unknown kid is due.
          const crossed = await issuer.sign(
            { scope: SCOPE, iss: tenant.issuer, aud: tenant.audience },
            { issuedAt: -60 },
          );
          const crossedReply = await postPlant(several.url, crossed, body());
          expectError(crossedReply, 401);
          expect(crossedReply.headers['www-authenticate']).toBe(
            'Bearer realm="plantstore", error="invalid_token", error_description="No key of the key set matches the token"',
          );
          const unknown = await issuer.sign({ scope: SCOPE, iss: 'https://unknown.example/' });
          const before = [issuer.requests, tenant.requests, down.requests];
          const unknownReply = await postPlant(several.url, unknown, body());
          expectError(unknownReply, 401);
          expect(unknownReply.headers['www-authenticate']).toBe(
            'Bearer realm="plantstore", error="invalid_token", error_description="The token names no accepted issuer"',
          );
          expect([issuer.requests, tenant.requests, down.requests]).toEqual(before);
          const outage = await postPlant(several.url, await down.sign({ scope: SCOPE }), body());
          expectError(outage, 503);
          expect(outage.headers['retry-after']).toBe('30');
          expect(outage.headers['www-authenticate']).toBeUndefined();
          expect((await postPlant(several.url, tenantToken, body())).status).toBe(200);
        } finally {
          await several.close();
          await Promise.all([tenant.close(), down.close()]);
        }
      });
    });

    describe('other requests', () => {
      const expectPassedOn = (reply: Reply, method: string, path: string): void => {
        if (target.passesOn) {
          expect(reply.status).toBe(200);
          expect(reply.text).toBe(`host:${method} ${path}`);
        } else {
          expectError(reply, method === 'POST' ? 404 : 405);
        }
      };

      it('leaves other methods on the route path to the host', async () => {
        const reply = await send(host.url, {
          method: 'GET',
          headers: { authorization: `Bearer ${token}` },
        });
        expectPassedOn(reply, 'GET', `${new URL(host.url).pathname.replace(/\/$/, '')}/plants`);
      });

      it('leaves other paths to the host', async () => {
        const reply = await post(`{"id":${id()},"name":"a"}`, { path: '/plants/extra' });
        expectPassedOn(
          reply,
          'POST',
          `${new URL(host.url).pathname.replace(/\/$/, '')}/plants/extra`,
        );
      });
    });

    describeDpopContract(target, () => issuer);
  });
}
