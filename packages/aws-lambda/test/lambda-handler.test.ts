import {
  type HttpApiEvent,
  type HttpApiResult,
  lambdaHandler,
  type RestApiEvent,
  type RestApiResult,
} from '@plantstore/aws-lambda';
import {
  createPlantService,
  InvalidTokenError,
  jwtBearer,
  memoryStore,
  type MemoryStore,
  MissingTokenError,
  NotFoundError,
  PayloadTooLargeError,
  type PlantService,
} from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_URL_EVENT, HTTP_API_EVENT, REST_API_EVENT } from './events/aws-documented-events';

const JSON_TYPE = 'application/json; charset=utf-8';
const EXACT = '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}';

let issuer: TokenIssuer;
let store: MemoryStore;
let plants: PlantService;
let token: string;
let handler: ReturnType<typeof lambdaHandler>;

beforeAll(async () => {
  issuer = await createTokenIssuer();
  store = memoryStore();
  plants = createPlantService({
    basePath: '/api',
    store,
    auth: jwtBearer({ jwksUri: issuer.jwksUri, issuer: issuer.issuer, audience: issuer.audience }),
  });
  token = await issuer.sign({ sub: 'lambda-user' });
  handler = lambdaHandler((request) => plants.fetch(request));
});

afterAll(async () => {
  await plants?.close();
  await issuer?.close();
});

/** The documented 2.0 event, as a POST of `body` to `/api/plants` with the test's token. */
function httpApiPost(
  body: string,
  change: { headers?: Record<string, string>; base64?: boolean; event?: HttpApiEvent } = {},
): HttpApiEvent {
  const event = change.event ?? HTTP_API_EVENT;
  return {
    ...event,
    rawPath: '/api/plants',
    rawQueryString: '',
    headers: {
      ...event.headers,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...change.headers,
    },
    requestContext: {
      ...event.requestContext,
      http: { ...event.requestContext.http, method: 'POST' },
    },
    body: change.base64 === true ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: change.base64 === true,
  };
}

/** The documented 1.0 event, as a POST of `body` to `/api/plants`. */
function restApiPost(body: string, authorization: readonly string[]): RestApiEvent {
  return {
    ...REST_API_EVENT,
    httpMethod: 'POST',
    path: '/api/plants',
    headers: { ...REST_API_EVENT.headers, authorization: authorization.at(-1)! },
    multiValueHeaders: {
      ...REST_API_EVENT.multiValueHeaders,
      authorization,
      'content-type': ['application/json'],
    },
    body,
  };
}

describe('an HTTP API event (payload format 2.0)', () => {
  it('creates a plant with an exact int64 id from a text body, and answers 200', async () => {
    const result: HttpApiResult = await handler(httpApiPost(EXACT));
    expect(result).toEqual({
      statusCode: 200,
      headers: {
        'cache-control': 'no-store',
        'content-type': JSON_TYPE,
        vary: 'Authorization',
      },
      body: '{"name":"Monstera","tag":"aroid"}',
      isBase64Encoded: false,
    });
    expect(store.get(9_007_199_254_740_993n)).toMatchObject({
      id: 9_007_199_254_740_993n,
      name: 'Monstera',
      tag: 'aroid',
    });
  });

  it('reads a base64 body (isBase64Encoded) as the same bytes: the replay answers 200', async () => {
    const result = await handler(httpApiPost(EXACT, { base64: true }));
    expect(result.statusCode).toBe(200);
    expect(result.body).toBe('{"name":"Monstera","tag":"aroid"}');
  });

  it('answers two Authorization fields, joined with a comma by API Gateway, 400 invalid_request', async () => {
    const result = await handler(
      httpApiPost('{"id": 1, "name": "Fern"}', {
        headers: { authorization: `Bearer ${token},Bearer ${token}` },
      }),
    );
    expect(result.statusCode).toBe(400);
    expect(result.headers['www-authenticate']).toMatch(
      /^Bearer realm="plantstore", error="invalid_request"/u,
    );
    expect(store.get(1n)).toBeUndefined();
  });

  it('answers a body over the route limit 413 in the Error shape, even one near Lambda’s 6 MB', async () => {
    // 4.4 MB of JSON, 5.9 MB once base64: the largest body a 6 MB invocation carries.
    const body = `{"id": 2, "name": "${'x'.repeat(4_400_000)}"}`;
    const result = await handler(httpApiPost(body, { base64: true }));
    expect(result.statusCode).toBe(413);
    expect(JSON.parse(result.body)).toEqual({
      error: 413,
      message: new PayloadTooLargeError(16_384).message,
    });
  });

  it('removes a named stage from the path under the execute-api domain', async () => {
    const event = httpApiPost('{"id": 3, "name": "Ivy"}');
    const staged: HttpApiEvent = {
      ...event,
      rawPath: '/prod/api/plants',
      requestContext: { ...event.requestContext, stage: 'prod' },
    };
    expect((await handler(staged)).statusCode).toBe(200);
    expect(store.get(3n)).toMatchObject({ id: 3n, name: 'Ivy' });
  });

  it('hands a header value beyond Latin-1 over as its UTF-8 bytes: a token with é is 401', async () => {
    const result = await handler(
      httpApiPost('{"id": 4, "name": "Fern"}', { headers: { authorization: 'Bearer é.é.é' } }),
    );
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body)).toEqual({
      error: 401,
      message: new InvalidTokenError(
        'token_malformed',
        'The token contains characters RFC 6750 does not allow',
      ).message,
    });
  });

  it('answers without a token 401, with no Connection field: the function has no connection', async () => {
    const event = httpApiPost('{"id": 8, "name": "Fern"}');
    const headers = Object.fromEntries(
      Object.entries(event.headers ?? {}).filter(([name]) => name !== 'authorization'),
    );
    const result = await handler({ ...event, headers });
    expect(result).toEqual({
      statusCode: 401,
      headers: {
        'cache-control': 'no-store',
        'content-type': JSON_TYPE,
        vary: 'Authorization',
        'www-authenticate': 'Bearer realm="plantstore"',
      },
      body: JSON.stringify({ error: 401, message: new MissingTokenError().message }),
      isBase64Encoded: false,
    });
  });

  it('answers the documented event itself (POST /my/path) 404 in the Error shape', async () => {
    const result = await handler(HTTP_API_EVENT);
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body)).toEqual({
      error: 404,
      message: new NotFoundError('/api/plants').message,
    });
  });
});

describe('an invocation', () => {
  // The route's time-outs are unref'd timers, as a server's socket holds its process open; a Lambda
  // function has none, so a store stalled without a socket would let the event loop empty and the
  // runtime end the invocation without the 503.
  it('holds the event loop open while the answer is pending, and lets it go after', async () => {
    const timers = (): number =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    let answer: (response: Response) => void = () => undefined;
    const pending = lambdaHandler(() => new Promise<Response>((resolve) => (answer = resolve)));
    const before = timers();
    const invocation = pending(httpApiPost('{}'));
    expect(timers()).toBe(before + 1);
    answer(new Response('{}', { status: 200 }));
    expect((await invocation).statusCode).toBe(200);
    expect(timers()).toBe(before);
  });
});

describe('a Function URL event (the 2.0 shape)', () => {
  it('creates a plant and answers 200', async () => {
    const result = await handler(
      httpApiPost('{"id": 5, "name": "Pothos"}', { event: FUNCTION_URL_EVENT }),
    );
    expect(result.statusCode).toBe(200);
    expect(result.body).toBe('{"name":"Pothos"}');
    expect(store.get(5n)).toMatchObject({ id: 5n, name: 'Pothos' });
  });
});

describe('a REST API event (payload format 1.0)', () => {
  it('creates a plant and answers 200 with every header as a list', async () => {
    const result: RestApiResult = await handler(
      restApiPost('{"id": 6, "name": "Calathea"}', [`Bearer ${token}`]),
    );
    expect(result).toEqual({
      statusCode: 200,
      multiValueHeaders: {
        'cache-control': ['no-store'],
        'content-type': [JSON_TYPE],
        vary: ['Authorization'],
      },
      body: '{"name":"Calathea"}',
      isBase64Encoded: false,
    });
  });

  it('removes a named stage from the path of an HTTP API set to 1.0, and never from a REST API path', async () => {
    const event = restApiPost('{"id": 8, "name": "Aloe"}', [`Bearer ${token}`]);
    const context = { ...event.requestContext, stage: 'api' };
    // An HTTP API sends `version: '1.0'` and the stage in `path` (`/api/api/plants` at stage `api`).
    const httpApi: RestApiEvent = { ...event, path: '/api/api/plants', requestContext: context };
    expect((await handler(httpApi)).statusCode).toBe(200);
    // A REST API sends no `version`, and `path` without the stage, whatever the stage is named.
    const restApi: RestApiEvent = { ...event, requestContext: context };
    Reflect.deleteProperty(restApi, 'version');
    expect((await handler(restApi)).statusCode).toBe(200);
    expect(store.get(8n)).toMatchObject({ id: 8n, name: 'Aloe' });
  });

  it('keeps a repeated Authorization field of multiValueHeaders apart: 400 invalid_request', async () => {
    const result = await handler(
      restApiPost('{"id": 7, "name": "Fern"}', [`Bearer ${token}`, `Bearer ${token}`]),
    );
    expect(result.statusCode).toBe(400);
    expect(result.multiValueHeaders['www-authenticate']?.[0]).toMatch(/error="invalid_request"/u);
    expect(store.get(7n)).toBeUndefined();
  });
});
