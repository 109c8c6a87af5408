import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import type { PlantServiceError } from '../errors/plant-service-error';
import { memoryStore } from '../plant/memory-store';
import { createPlantService } from './service';

const secret = 'a-secret-that-is-at-least-32-bytes-long';
const issuer = 'https://id.example.com/';
const audience = 'https://api.example.com/plants';
const token = await new SignJWT({ scope: 'plants:write' })
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setIssuer(issuer)
  .setAudience(audience)
  .setSubject('client')
  .setExpirationTime('1h')
  .sign(new TextEncoder().encode(secret));

function service(options: { bodyLimit?: number; bodyTimeout?: number } = {}) {
  const store = memoryStore();
  const rejected: PlantServiceError[] = [];
  const plants = createPlantService({
    basePath: '/api',
    store,
    auth: jwtBearer({ secret, issuer, audience, algorithms: ['HS256'] }),
    onRejected: (error) => void rejected.push(error),
    ...options,
  });
  return { plants, store, rejected };
}

/** A POST to the route; `length` is the declared Content-Length (none when undefined). */
function post(
  body: string | Uint8Array | ReadableStream<Uint8Array>,
  length: number | undefined,
  url = 'http://127.0.0.1/api/plants',
): Request {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  };
  if (length !== undefined) headers['content-length'] = String(length);
  // `duplex` is what Node's Request needs for a stream body.
  return new Request(url, { method: 'POST', headers, body, duplex: 'half' });
}

/** A body stream of these chunks; then it ends, fails or stays open. */
function stream(chunks: string[], then: 'end' | 'fail' | 'hang'): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (then === 'end') controller.close();
      if (then === 'fail') controller.error(new Error('the client went away'));
    },
  });
}

const MONSTERA = '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}';

describe('the fetch entry', () => {
  it('reads a declared body whole and keeps an id beyond 2^53 exact', async () => {
    const { plants, store } = service();
    const response = await plants.fetch(post(MONSTERA, MONSTERA.length));
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toStrictEqual({
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      vary: 'Authorization',
    });
    expect(await response.text()).toBe('{"name":"Monstera","tag":"aroid"}');
    const stored = store.get(9007199254740993n);
    expect([stored?.id, stored?.name, stored?.tag]).toStrictEqual([
      9007199254740993n,
      'Monstera',
      'aroid',
    ]);
  });

  it('reads a body without a declared length through its stream', async () => {
    const { plants, store } = service();
    const response = await plants.fetch(
      post(stream(['{"id": 2,', ' "name": "Fern"}'], 'end'), undefined),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"name":"Fern"}');
    expect(store.size).toBe(1);
  });

  it('answers 413 to a declared length over the limit without reading a byte', async () => {
    const { plants, rejected } = service({ bodyLimit: 64 });
    let pulled = false;
    // No chunk is asked for before a read (high-water mark 0).
    const body = new ReadableStream<Uint8Array>(
      {
        pull() {
          pulled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const response = await plants.fetch(post(body, 65));
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(pulled).toBe(false);
    expect(rejected.map((error) => error.code)).toEqual(['body_too_large']);
  });

  it('answers 413 when a program-built request holds more than the limit under a smaller declared length', async () => {
    const { plants, store } = service({ bodyLimit: 64 });
    const response = await plants.fetch(post(`{"id": 3, "name": "${'x'.repeat(80)}"}`, 20));
    expect(response.status).toBe(413);
    expect(store.size).toBe(0);
  });

  it('answers 400 body_aborted when the body fails mid-read, as when the client goes away', async () => {
    const { plants, rejected } = service();
    const response = await plants.fetch(post(stream(['{"id": 4,'], 'fail'), 40));
    expect(response.status).toBe(400);
    expect(await response.json()).toStrictEqual({
      error: 400,
      message: 'The request body could not be read to its end.',
    });
    expect(rejected.map((error) => error.code)).toEqual(['body_aborted']);
  });

  it('answers 408 when a declared body does not arrive within the read time-out', async () => {
    const { plants, rejected } = service({ bodyTimeout: 100 });
    const response = await plants.fetch(post(stream(['{"id": 5,'], 'hang'), 40));
    expect(response.status).toBe(408);
    expect(response.headers.get('connection')).toBe('close');
    expect(rejected.map((error) => error.code)).toEqual(['body_timeout']);
  });

  it('refuses invalid UTF-8 read whole, as from a stream', async () => {
    const { plants, rejected } = service();
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"id": 6, "name": "'),
      0xff,
      0x22,
      0x7d,
    ]);
    const response = await plants.fetch(post(bytes, bytes.length));
    expect(response.status).toBe(400);
    expect(rejected.map((error) => error.code)).toEqual(['body_invalid_utf8']);
  });

  it('routes by the path URL parsing gives, dot segments and encodings included', async () => {
    const { plants } = service();
    const routed = await plants.fetch(
      post('{"id": 7, "name": "Ivy"}', 24, 'http://127.0.0.1/api/./plants?x=1'),
    );
    expect(routed.status).toBe(200);
    const other = await plants.fetch(
      post('{"id": 8, "name": "Ivy"}', 24, 'http://127.0.0.1/api/plant%73'),
    );
    expect(other.status).toBe(404);
    // The way to the route, as this service is mounted: its base path, not the bare /plants.
    expect(await other.json()).toEqual({
      error: 404,
      message: 'There is no route at this path; plants are created with POST /api/plants.',
    });
  });

  it('gives every answer headers of its own', async () => {
    const { plants } = service();
    const first = await plants.fetch(post('{"id": 9, "name": "Ivy"}', 24));
    first.headers.set('x-changed', 'yes');
    const second = await plants.fetch(post('{"id": 10, "name": "Ivy"}', 25));
    expect(second.headers.get('x-changed')).toBeNull();
    expect(second.headers.get('cache-control')).toBe('no-store');
  });
});
