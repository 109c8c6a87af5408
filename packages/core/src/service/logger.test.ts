import { Readable } from 'node:stream';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { memoryStore } from '../plant/memory-store';
import type { PlantStore } from '../plant/store';
import type { PlantRequest } from '../http/request';
import { type LoggedFailure, logFailures, type PlantLogger } from './logger';
import { InternalServerError, ServiceUnavailableError } from '../errors/server-errors';
import { createPlantService } from './service';
import type { PlantServiceOptions } from './service-options';

const secret = new TextEncoder().encode('a-test-secret-that-is-at-least-32-bytes-long');
const token = await new SignJWT({ sub: 'tester' })
  .setProtectedHeader({ alg: 'HS256' })
  .setExpirationTime('1h')
  .sign(secret);
const auth = jwtBearer({ secret });
const failingStore: PlantStore = { insert: () => Promise.reject(new Error('relation missing')) };
const INTERNAL =
  '{"error":500,"message":"The plant could not be created because of an internal error."}';

/** A logger that keeps what it is told, as a host's would write it. */
function keptLogger() {
  const warnings: string[] = [];
  const errors: [string, LoggedFailure][] = [];
  const logger: PlantLogger = {
    warn: (message) => warnings.push(message),
    error: (message, failure) => errors.push([message, failure]),
  };
  return { logger, warnings, errors };
}

const request = (extra: Partial<PlantRequest>): PlantRequest => ({
  method: 'POST',
  path: '/api/plants',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: Readable.from([Buffer.from('{"id":1,"name":"Fern"}')]),
  ...extra,
});

const serve = (options: Partial<PlantServiceOptions>, extra: Partial<PlantRequest> = {}) =>
  createPlantService({ store: memoryStore(), auth, basePath: '/api', ...options }).handle(
    request(extra),
  );

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the default logger', () => {
  it('logs a 5xx with its cause when no onError is set, and answers as before', async () => {
    const { logger, errors, warnings } = keptLogger();
    const answer = await serve({ store: failingStore, logger });
    expect([answer.status, answer.body]).toStrictEqual([500, INTERNAL]);
    expect(errors).toStrictEqual([
      [
        'plantstore: 500 store_failed on POST /api/plants: The store failed. Caused by Error: relation missing',
        {
          status: 500,
          code: 'store_failed',
          message: 'The store failed.',
          method: 'POST',
          path: '/api/plants',
          causes: [{ name: 'Error', message: 'relation missing' }],
        },
      ],
    ]);
    expect(warnings).toStrictEqual([]);
  });

  it("writes what a request causes to the request's own logger when its adapter gives one", async () => {
    const service = keptLogger();
    const own = keptLogger();
    await serve({ store: failingStore, logger: service.logger }, { logger: own.logger });
    expect(own.errors.map(([message]) => message)).toStrictEqual([
      'plantstore: 500 store_failed on POST /api/plants: The store failed. Caused by Error: relation missing',
    ]);
    expect(service.errors).toStrictEqual([]);
    await serve({ store: failingStore, logger: false }, { logger: own.logger });
    expect(own.errors).toHaveLength(1);
  });

  it('is console when no logger is given', async () => {
    const written = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await serve({ store: failingStore });
    // The line alone: console would print a second argument whole.
    expect(written.mock.calls).toStrictEqual([
      [
        'plantstore: 500 store_failed on POST /api/plants: The store failed. Caused by Error: relation missing',
      ],
    ]);
  });

  it("leaves 5xx to the host's onError, and logs nothing with logger: false", async () => {
    const { logger, errors } = keptLogger();
    const seen: string[] = [];
    await serve({ store: failingStore, logger, onError: (error) => void seen.push(error.code) });
    expect([seen, errors]).toStrictEqual([['store_failed'], []]);
    const written = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = await serve({ store: failingStore, logger: false });
    expect([answer.status, written.mock.calls.length]).toStrictEqual([500, 0]);
  });

  it("hands the store's ready() the service's logger, and none with logger: false", async () => {
    const { logger, warnings } = keptLogger();
    const store: PlantStore = {
      insert: () => Promise.reject(new Error('unused')),
      ready: (context) => Promise.resolve(context?.logger?.warn('the store speaks')),
    };
    await createPlantService({ store, auth, logger }).ready();
    await createPlantService({ store, auth, logger: false }).ready();
    expect(warnings).toStrictEqual(['the store speaks']);
  });

  it('logs a hook that throws when no onError is set', async () => {
    const { logger, errors } = keptLogger();
    const onRejected = () => {
      throw new Error('hook bug');
    };
    await serve({ logger, onRejected }, { headers: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors.map(([message]) => message)).toStrictEqual([
      'plantstore: 500 hook_failed on POST /api/plants: A hook threw. Caused by Error: hook bug',
    ]);
  });

  it.each([
    [
      'throws',
      () => {
        throw new TypeError('report bug');
      },
    ],
    ['rejects', () => Promise.reject(new TypeError('report bug'))],
  ])(
    'logs the failure an onError that %s was given, rather than losing it, and answers as before',
    async (_case, onError) => {
      const { logger, errors } = keptLogger();
      const answer = await serve({ store: failingStore, logger, onError });
      await new Promise((resolve) => setImmediate(resolve));
      expect([answer.status, answer.body]).toStrictEqual([500, INTERNAL]);
      expect(errors.map(([message]) => message)).toStrictEqual([
        'plantstore: onError threw TypeError: report bug while reporting 500 store_failed on POST /api/plants: The store failed. Caused by Error: relation missing',
      ]);
      expect(errors[0]?.[1].causes).toStrictEqual([{ name: 'Error', message: 'relation missing' }]);
      const silent = await serve({ store: failingStore, logger: false, onError });
      expect(silent.status).toBe(500);
    },
  );

  it("keeps each cause's class, code and message, and none of a driver's statement, values, claims or stack", async () => {
    // As node-postgres and mysql2 throw them: the statement, its parameters and the row's values
    // ride on the error beside its message, and the principal's subject is one of those values.
    class DatabaseError extends Error {
      override name = 'error';
      code = '23514';
      detail = 'Failing row contains (1, Fern, null, 3f9a2c-subject).';
      where = 'SQL statement "INSERT INTO plants …"';
      parameters = ['1', 'Fern', null, '3f9a2c-subject'];
    }
    const sql = Object.assign(new Error("Table 'test.plants' doesn't exist"), {
      code: 'ER_NO_SUCH_TABLE',
      errno: 1146,
      sql: "INSERT INTO plants (id, name, sub) VALUES (1, 'Fern', '3f9a2c-subject')",
    });
    const stores: PlantStore[] = [
      {
        insert: () =>
          Promise.reject(
            new Error('insert failed', {
              cause: new DatabaseError('new row violates check constraint "plants_name_check"'),
            }),
          ),
      },
      { insert: () => Promise.reject(sql) },
    ];
    const written = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const store of stores) await serve({ store });
    expect(written.mock.calls).toStrictEqual([
      [
        'plantstore: 500 store_failed on POST /api/plants: The store failed. Caused by Error: insert failed; caused by DatabaseError [23514]: new row violates check constraint "plants_name_check"',
      ],
      [
        "plantstore: 500 store_failed on POST /api/plants: The store failed. Caused by Error [ER_NO_SUCH_TABLE]: Table 'test.plants' doesn't exist",
      ],
    ]);
    expect(JSON.stringify(written.mock.calls)).not.toMatch(/Fern|3f9a2c|tester| at /u);
  });

  it.each([
    ['a string', 'console', /"logger" must be false or an object with warn and error functions/],
    ['an object without error', { warn: () => undefined }, /"logger"/],
  ])('refuses a logger that is %s at start-up', (_case, logger, message) => {
    const create = () => createPlantService({ store: memoryStore(), auth, logger } as never);
    expect(create).toThrow(TypeError);
    expect(create).toThrow(message);
  });
});

describe('an outage', () => {
  it('logs the first failure of each code per 10 s, then counts the ones it left out', () => {
    const { logger, errors } = keptLogger();
    let clock = 0;
    const log = logFailures(logger, () => clock);
    const context = { method: 'POST', path: '/api/plants' };
    const timeout = new ServiceUnavailableError('store_timeout', 'The store timed out.');
    const failed = new InternalServerError('store_failed', 'The store failed.');
    for (const at of [0, 1, 9_999, 10_000, 10_500, 30_000]) {
      clock = at;
      log(timeout, context);
    }
    log(failed, context);
    expect(errors.map(([message]) => message)).toStrictEqual([
      'plantstore: 503 store_timeout on POST /api/plants: The store timed out.',
      'plantstore: 503 store_timeout on POST /api/plants: The store timed out. (and 2 more store_timeout since the last line)',
      'plantstore: 503 store_timeout on POST /api/plants: The store timed out. (and 1 more store_timeout since the last line)',
      'plantstore: 500 store_failed on POST /api/plants: The store failed.',
    ]);
    expect(errors[0]?.[1]).toStrictEqual({
      status: 503,
      code: 'store_timeout',
      message: 'The store timed out.',
      method: 'POST',
      path: '/api/plants',
      causes: [],
    });
  });
});

describe('a body parser mounted before the route', () => {
  it('answers a numeric id the generic 500, warns the server once, and stores nothing', async () => {
    const { logger, errors, warnings } = keptLogger();
    const store = memoryStore();
    const service = createPlantService({ store, auth, basePath: '/api', logger });
    for (const id of [2 ** 53 + 2, 5]) {
      const answer = await service.handle(
        request({ body: undefined, parsedBody: { id, name: 'x' } }),
      );
      expect([answer.status, answer.body]).toStrictEqual([500, INTERNAL]);
    }
    expect(store.size).toBe(0);
    // The second is within the first's quiet window (below): one line for the run.
    expect(errors.map(([message]) => message)).toStrictEqual([
      "plantstore: 500 body_parsed_by_host on POST /api/plants: The host application's JSON body parser read the body before the plants route, and a parsed number cannot show that the id was sent exactly (1.0000000000000001 and 1 parse the same; ids past 2^53 are rounded).",
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^plantstore: the host application's JSON body parser read/);
    expect(warnings[0]).toContain('express.json({ verify: plants.keepRawBody })');
  });

  it('tells the client how to send U+FFFD in decoded text, and the server once how to keep the bytes', async () => {
    const { logger, warnings } = keptLogger();
    const service = createPlantService({ store: memoryStore(), auth, basePath: '/api', logger });
    for (let sent = 0; sent < 2; sent++) {
      const answer = await service.handle(
        request({ body: undefined, parsedBody: '{"id":1,"name":"\uFFFD"}' }),
      );
      expect([answer.status, answer.body]).toStrictEqual([
        400,
        '{"error":400,"message":"The body holds U+FFFD, which this server cannot tell apart from a byte that was not UTF-8; send the character as the JSON escape \\\\ufffd."}',
      ]);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('express.text({ verify: plants.keepRawBody })');
  });
});
