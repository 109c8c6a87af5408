import { Readable } from 'node:stream';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { type PlantServiceError } from '../errors/plant-service-error';
import { ServiceUnavailableError } from '../errors/server-errors';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { memoryStore } from '../plant/memory-store';
import type { NewPlant, StoredPlant } from '../plant/plant';
import type { Authenticator } from '../auth/authenticator';
import type { PlantRequest } from '../http/request';
import { cancellation } from '../common/cancellation';
import { quietService, TEST_SECRET } from './quiet-service.fixture';
import { createPlantService, isPlantService } from './service';
import type { PlantStore, StoreContext } from '../plant/store';

const secret = TEST_SECRET;
const sign = (claims: Record<string, unknown> = {}) =>
  new SignJWT({ sub: 'tester', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(secret);

const plantRequest = (
  token: string,
  body: PlantRequest['body'],
  extra: Partial<PlantRequest> = {},
): PlantRequest => ({
  method: 'POST',
  path: '/plants',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body,
  ...extra,
});

describe('createPlantService', () => {
  const base = { store: memoryStore(), auth: jwtBearer({ secret }) };

  it.each([
    ['no store', { auth: base.auth }, /"store"/],
    ['a store without insert', { ...base, store: {} }, /"store"/],
    ['no auth', { store: base.store }, /"auth".*no mode without auth/],
    ['auth that is a string', { ...base, auth: 'none' }, /"auth"/],
    ['a negative body limit', { ...base, bodyLimit: -1 }, /"bodyLimit"/],
    ['a fractional store time-out', { ...base, storeTimeout: 1.5 }, /"storeTimeout"/],
    ['a base path without a slash', { ...base, basePath: 'api' }, /"basePath"/],
    ['a realm with a quote', { ...base, realm: 'a"b' }, /"realm"/],
    ['a hook that is not a function', { ...base, onCreated: 'log' }, /"onCreated"/],
    [
      'a misspelt option',
      { ...base, bodylimit: 10 },
      /unknown option "bodylimit" \(did you mean "bodyLimit"\?\)$/,
    ],
  ])('throws a TypeError naming the option for %s', (_case, options, message) => {
    const create = () => createPlantService(options as never);
    expect(create).toThrow(TypeError);
    expect(create).toThrow(message);
  });

  it('tells its services apart from options', () => {
    expect(isPlantService(createPlantService(base))).toBe(true);
    expect(isPlantService(base)).toBe(false);
  });

  it('matches POST on the route path, with a trailing slash and any case unless told otherwise', () => {
    const lenient = createPlantService({ ...base, basePath: '/api/' });
    expect(lenient.matches('POST', '/api/plants')).toBe(true);
    expect(lenient.matches('POST', '/api/plants/')).toBe(true);
    expect(lenient.matches('POST', '/API/Plants')).toBe(true);
    expect(lenient.matches('GET', '/api/plants')).toBe(false);
    expect(lenient.matches('POST', '/plants')).toBe(false);
    const strict = createPlantService({ ...base, strictRouting: true, caseSensitiveRouting: true });
    expect(strict.matches('POST', '/plants/')).toBe(false);
    expect(strict.matches('POST', '/Plants')).toBe(false);
  });
});

describe('handle', () => {
  it('reads the body from bytes, text, a Web stream or a Node stream', async () => {
    const store = memoryStore();
    const service = quietService({ store });
    const token = await sign();
    const json = (id: number) => `{"id":${id},"name":"n${id}"}`;
    const bodies: PlantRequest[] = [
      plantRequest(token, new TextEncoder().encode(json(1))),
      plantRequest(token, json(2)),
      plantRequest(token, new Blob([json(3)]).stream()),
      plantRequest(
        token,
        Readable.from([Buffer.from(json(4).slice(0, 5)), Buffer.from(json(4).slice(5))]),
      ),
    ];
    for (const request of bodies) expect((await service.handle(request)).status).toBe(200);
    expect([...store.values()].map((plant) => plant.name)).toEqual(['n1', 'n2', 'n3', 'n4']);
  });

  it('reads text or bytes a host parser left as the exact body, and an emptied {} as empty', async () => {
    const store = memoryStore();
    const service = quietService({ store });
    const token = await sign();
    const text = '{"id":9007199254740993,"name":"Text"}';
    expect(
      (await service.handle(plantRequest(token, undefined, { parsedBody: text }))).status,
    ).toBe(200);
    const bytes = new TextEncoder().encode('{"id":9007199254740995,"name":"Bytes"}');
    expect(
      (await service.handle(plantRequest(token, undefined, { parsedBody: bytes }))).status,
    ).toBe(200);
    expect(store.get(9007199254740993n)?.name).toBe('Text');
    expect(store.get(9007199254740995n)?.name).toBe('Bytes');
    const emptied = await service.handle({
      method: 'POST',
      path: '/plants',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': '0',
      },
      parsedBody: {},
    });
    expect(emptied.status).toBe(400);
    expect(JSON.parse(emptied.body)).toEqual({
      error: 400,
      message: 'The body is empty; send one JSON object.',
    });
  });

  it('refuses a host-parsed body whose declared length is over the limit, as it would a raw one', async () => {
    const service = quietService({ bodyLimit: 100 });
    const answer = await service.handle({
      method: 'POST',
      path: '/plants',
      headers: {
        authorization: `Bearer ${await sign()}`,
        'content-type': 'application/json',
        'content-length': '101',
      },
      parsedBody: { id: 1, name: 'x' },
    });
    expect(answer.status).toBe(413);
  });

  it('hands the verified principal to the store, the hooks and the answer', async () => {
    let seen: unknown;
    const store: PlantStore = {
      insert: (_plant, context) => {
        seen = context.principal.subject;
        return Promise.resolve({ created: true });
      },
    };
    const created: string[] = [];
    const service = quietService({
      store,
      onCreated: (plant, context) =>
        void created.push(`${plant.name} by ${context.principal?.subject}`),
    });
    const answer = await service.handle(
      plantRequest(await sign({ sub: 'alice' }), '{"id":1,"name":"Fern"}'),
    );
    expect(answer.principal?.subject).toBe('alice');
    expect(seen).toBe('alice');
    expect(created).toEqual(['Fern by alice']);
  });

  it('calls onCreated on a creation and not on a replay', async () => {
    const created: NewPlant[] = [];
    const service = quietService({
      onCreated: (plant) => void created.push(plant),
    });
    const token = await sign();
    await service.handle(plantRequest(token, '{"id":7,"name":"Once"}'));
    await service.handle(plantRequest(token, '{"id":7,"name":"Once"}'));
    expect(created).toHaveLength(1);
  });

  it('keeps the decided answer when a hook throws, and reports the failure to onError once', async () => {
    const errors: PlantServiceError[] = [];
    const service = quietService({
      onCreated: () => {
        throw new Error('webhook down');
      },
      onRejected: () => Promise.reject(new Error('metrics down')),
      onError: (error) => void errors.push(error),
    });
    const token = await sign();
    expect((await service.handle(plantRequest(token, '{"id":8,"name":"Hooked"}'))).status).toBe(
      200,
    );
    expect((await service.handle(plantRequest(token, '{"id":8,"name":"Other"}'))).status).toBe(409);
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors.map((error) => [error.code, (error.cause as Error).message])).toEqual([
      ['hook_failed', 'webhook down'],
      ['hook_failed', 'metrics down'],
    ]);
  });

  it('reports each 5xx to onError exactly once with its cause, and every refusal to onRejected', async () => {
    const errors: PlantServiceError[] = [];
    const rejected: string[] = [];
    const failure = new Error('relation "plants" does not exist');
    const service = quietService({
      store: { insert: () => Promise.reject(failure) },
      onError: (error) => void errors.push(error),
      onRejected: (error) => void rejected.push(error.code),
    });
    const answer = await service.handle(plantRequest(await sign(), '{"id":9,"name":"x"}'));
    expect(answer.status).toBe(500);
    expect(answer.body).toBe(
      '{"error":500,"message":"The plant could not be created because of an internal error."}',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]?.cause).toBe(failure);
    expect(rejected).toEqual(['store_failed']);
  });

  it('aborts a store that outlives the store time-out and answers 503', async () => {
    let signal: AbortSignal | undefined;
    const service = quietService({
      store: {
        insert: (_plant, context) => {
          signal = context.signal;
          return new Promise((_, reject) =>
            context.signal.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        },
      },
      storeTimeout: 20,
      retryAfter: 7,
    });
    const answer = await service.handle(plantRequest(await sign(), '{"id":10,"name":"Slow"}'));
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('7');
    expect(signal?.aborted).toBe(true);
  });

  it('answers 503 at the time-out for a store that never reads its signal, and hands a late reader an aborted one', async () => {
    let context: StoreContext | undefined;
    const service = quietService({
      store: {
        insert: (_plant, given) => {
          context = given;
          return new Promise(() => undefined);
        },
      },
      storeTimeout: 20,
      retryAfter: 3,
    });
    const started = performance.now();
    const answers = await Promise.all(
      [11, 12].map(async (id) =>
        service.handle(plantRequest(await sign(), `{"id":${id},"name":"x"}`)),
      ),
    );
    expect(answers.map((answer) => answer.status)).toStrictEqual([503, 503]);
    expect(answers[0]?.headers['retry-after']).toBe('3');
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
    expect(context?.signal.aborted).toBe(true);
    expect((context?.signal.reason as { code?: string }).code).toBe('store_timeout');
    await service.close();
  });

  it("answers 503 at the time-out when the store's abort listener throws, and hands the failure to onError", async () => {
    const failures: PlantServiceError[] = [];
    const cancelFailed = new Error('the driver could not cancel');
    const service = quietService({
      store: {
        insert: (_plant, given) => {
          cancellation(given).onAbort(() => {
            throw cancelFailed;
          });
          cancellation(given).onAbort(() => undefined);
          return new Promise(() => undefined);
        },
      },
      storeTimeout: 20,
      onError: (error) => void failures.push(error),
    });
    const answers = await Promise.all(
      [21, 22].map(async (id) =>
        service.handle(plantRequest(await sign(), `{"id":${id},"name":"x"}`)),
      ),
    );
    expect(answers.map((answer) => answer.status)).toStrictEqual([503, 503]);
    expect(failures.map((error) => [error.code, error.cause])).toStrictEqual([
      ['store_timeout', cancelFailed],
      ['store_timeout', cancelFailed],
    ]);
    await service.close();
  });

  it('tells clients the configured Retry-After when the store reports itself unavailable', async () => {
    const service = quietService({
      store: {
        insert: () => Promise.reject(new ServiceUnavailableError('store_unavailable', 'down')),
      },
      retryAfter: 30,
    });
    const answer = await service.handle(plantRequest(await sign(), '{"id":13,"name":"x"}'));
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('30');
  });

  it('answers 500 when a store returns something that is not an InsertResult', async () => {
    const service = quietService({
      store: { insert: () => Promise.resolve({ created: 'yes' } as never) },
    });
    expect((await service.handle(plantRequest(await sign(), '{"id":11,"name":"x"}'))).status).toBe(
      500,
    );
  });

  it('answers 500, not 409, when the existing plant a store reports has a tag that is no string', async () => {
    const service = quietService({
      store: {
        insert: () =>
          Promise.resolve({ created: false, existing: { id: 12n, name: 'x', tag: 5 } } as never),
      },
    });
    const answer = await service.handle(plantRequest(await sign(), '{"id":12,"name":"x"}'));
    expect(answer.status).toBe(500);
  });

  it('answers 500 store_failed when the result a store answers throws as it is read', async () => {
    const failures: PlantServiceError[] = [];
    const thrown = new Error('a getter that throws');
    const hostile = new Proxy(
      {},
      {
        // Not a thenable, so the store's promise resolves with it; then every field throws.
        get(_target, key) {
          if (key === 'then') return undefined;
          throw thrown;
        },
      },
    );
    const service = quietService({
      store: { insert: () => Promise.resolve(hostile as never) },
      onError: (error) => void failures.push(error),
    });
    const answer = await service.handle(plantRequest(await sign(), '{"id":13,"name":"x"}'));
    expect(answer.status).toBe(500);
    expect(failures.map((error) => [error.code, error.cause])).toStrictEqual([
      ['store_failed', thrown],
    ]);
  });

  it('answers 500 store_failed, reported once, when the store reports a plant under another id', async () => {
    const errors: PlantServiceError[] = [];
    const reported = (id: unknown) =>
      quietService({
        store: {
          insert: () =>
            Promise.resolve({
              created: false,
              existing: { id, name: 'x', createdBy: 'tester' } as StoredPlant,
            }),
        },
        onError: (error) => void errors.push(error),
      });
    const body = '{"id":9007199254740993,"name":"x"}';
    const answer = await reported(9007199254740992n).handle(plantRequest(await sign(), body));
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toStrictEqual({
      error: 500,
      message: 'The plant could not be created because of an internal error.',
    });
    expect(errors.map((error) => error.code)).toStrictEqual(['store_failed']);
    // The same id as exact digits or a bigint is the plant asked for: a replay.
    for (const id of [9007199254740993n, '9007199254740993']) {
      expect((await reported(id).handle(plantRequest(await sign(), body))).status).toBe(200);
    }
    // A number cannot hold this id: the store rounded it (2 ** 53 + 1 is 2 ** 53 as a double).
    for (const id of [undefined, 2 ** 53 + 1, '9007199254740993.0']) {
      expect((await reported(id).handle(plantRequest(await sign(), body))).status).toBe(500);
    }
  });

  it.each([
    ['a refused connection', { code: 'ECONNREFUSED' }],
    ['a reset connection, wrapped by a driver', { code: 'POOL', cause: { code: 'ECONNRESET' } }],
    ['an administrator shutdown (57P01)', { code: '57P01' }],
    ['a connection exception (08006)', { code: '08006' }],
    ['too many connections (53300)', { code: '53300' }],
    ['a serialization failure (40001)', { code: '40001' }],
    ['a deadlock (40P01)', { code: '40P01' }],
  ])('answers 503 with Retry-After when any store fails with %s', async (_case, fields) => {
    const service = quietService({
      store: { insert: () => Promise.reject(Object.assign(new Error('driver says no'), fields)) },
      retryAfter: 7,
    });
    const answer = await service.handle(plantRequest(await sign(), '{"id":14,"name":"x"}'));
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('7');
    expect(answer.body).not.toContain('driver');
  });

  it.each([
    ['a unique violation (23505)', { code: '23505' }],
    ['a syntax error (42601)', { code: '42601' }],
    ['a plain error', {}],
  ])('answers 500 when a store fails with %s', async (_case, fields) => {
    const service = quietService({
      store: { insert: () => Promise.reject(Object.assign(new Error('driver says no'), fields)) },
    });
    const answer = await service.handle(plantRequest(await sign(), '{"id":15,"name":"x"}'));
    expect(answer.status).toBe(500);
    expect(answer.headers['retry-after']).toBeUndefined();
  });

  it('says what would be accepted in a 415: Accept for the media type, Accept-Encoding for a coding', async () => {
    const service = quietService();
    const token = await sign();
    const text = await service.handle(
      plantRequest(token, '{"id":16,"name":"x"}', {
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      }),
    );
    expect(text.status).toBe(415);
    expect(text.headers['accept']).toBe('application/json');
    expect(text.headers['accept-encoding']).toBeUndefined();
    const gzip = await service.handle(
      plantRequest(token, '{"id":16,"name":"x"}', {
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        },
      }),
    );
    expect(gzip.status).toBe(415);
    expect(gzip.headers['accept-encoding']).toBe('identity');
    expect(gzip.headers['accept']).toBeUndefined();
  });

  it('refuses a custom verifier’s undefined with 401 and turns its unexpected throw into 500', async () => {
    const refusing = createPlantService({
      logger: false,
      store: memoryStore(),
      auth: { verify: () => Promise.resolve(undefined) },
    });
    const refused = await refusing.handle(plantRequest('opaque-token', '{"id":1,"name":"x"}'));
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="invalid_token", error_description="The token was not accepted"',
    );
    const throwing = createPlantService({
      logger: false,
      store: memoryStore(),
      auth: { verify: () => Promise.reject(new Error('introspection bug')) },
    });
    expect(
      (await throwing.handle(plantRequest('opaque-token', '{"id":1,"name":"x"}'))).status,
    ).toBe(500);
  });

  it('refuses a verifier function with advice: the one shape is { verify }', () => {
    const verify = () => Promise.resolve(undefined);
    expect(() =>
      createPlantService({
        logger: false,
        store: memoryStore(),
        auth: verify as unknown as Authenticator,
      }),
    ).toThrow(
      'Plantstore: option "auth" must be an object with a verify function: write { verify: yourFunction }; received a function',
    );
  });

  it('names the configured realm in every challenge', async () => {
    const service = quietService({
      realm: 'greenhouse',
    });
    const answer = await service.handle({ method: 'POST', path: '/plants', headers: {} });
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="greenhouse"');
  });

  it('skips its own path check when the host router already matched the request', async () => {
    const service = quietService();
    const answer = await service.handle(
      plantRequest(await sign(), '{"id":12,"name":"x"}', { path: '/elsewhere', matched: true }),
    );
    expect(answer.status).toBe(200);
  });
});

describe('handle, for any input a client can send', () => {
  it('never throws, never answers 5xx, and stores nothing unless it answers 200', async () => {
    const store = memoryStore();
    const service = quietService({ store });
    const token = await sign();
    const jsonish = fc.oneof(
      fc.json(),
      fc.string({ unit: 'binary' }),
      fc
        .record({
          id: fc.oneof(fc.bigInt(), fc.double(), fc.string(), fc.constant(null)),
          name: fc.oneof(fc.string({ unit: 'binary' }), fc.integer(), fc.constant(null)),
          tag: fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
        })
        .map((value) =>
          JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)),
        ),
    );
    const authorization = fc.oneof(
      fc.constant(`Bearer ${token}`),
      fc.constant(undefined),
      fc.string(),
      fc.string().map((s) => `Bearer ${s}`),
      fc.constant(`Bearer ${token.slice(0, -2)}`),
    );
    const contentType = fc.oneof(
      fc.constant('application/json'),
      fc.constant('application/json; charset=utf-8'),
      fc.string(),
      fc.constant(undefined),
    );
    await fc.assert(
      fc.asyncProperty(
        jsonish,
        authorization,
        contentType,
        fc.uint8Array({ maxLength: 64 }),
        fc.boolean(),
        async (text, auth, type, bytes, useBytes) => {
          const before = store.size;
          const headers: Record<string, string> = {};
          if (auth !== undefined) headers.authorization = auth;
          if (type !== undefined) headers['content-type'] = type;
          const answer = await service.handle({
            method: 'POST',
            path: '/plants',
            headers,
            body: useBytes ? bytes : text,
          });
          expect(answer.status).toBeLessThan(500);
          const body = JSON.parse(answer.body) as Record<string, unknown>;
          if (answer.status === 200) expect(typeof body.name).toBe('string');
          else {
            expect(body.error).toBe(answer.status);
            expect(store.size).toBe(before);
          }
        },
      ),
      { numRuns: 3_000 },
    );
    // About 10 s on a quiet machine; the bound is for one shared with other CPU-bound work.
  }, 120_000);
});
