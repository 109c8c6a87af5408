import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createOpenApiDocument } from '@plantstore/core/openapi';
import createClient, { type Client } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { startExample, type RunningExample } from './example-app';
import { formatTypeScript, generateTypes, withoutHeader } from './generate-types';
import { CORE_DOCUMENT_NAME, generateTestTypes } from './generated-types';
import type { components, paths } from './generated/plantstore-api';
import type { paths as Int64Paths } from './generated/int64/plantstore-api';
import { jsonWithBigInt } from './json-with-bigint';

type Plant = components['schemas']['Plant'];
type ErrorBody = components['schemas']['Error'];
type CreateResponses = paths['/api/plants']['post']['responses'];

/** One documented answer of `POST /api/plants`: its status and the body the document gives it. */
type Answer = {
  [Status in keyof CreateResponses]: {
    readonly status: Status;
    readonly body: CreateResponses[Status]['content']['application/json'];
  };
}[keyof CreateResponses];

const documented = Object.keys(
  createOpenApiDocument({ basePath: '/api' }).paths['/api/plants']?.post.responses ?? {},
).map(Number);

/**
 * Turns openapi-fetch's `{data, error, response}` into a union a `switch` on `status` narrows:
 * `case 409` has an Error body, `case 200` a Plant. The status is checked against the document.
 */
function answerOf(result: { data?: unknown; error?: unknown; response: Response }): Answer {
  const { status } = result.response;
  if (!documented.includes(status)) throw new Error(`Status ${status} is not in the document.`);
  return { status, body: result.data ?? result.error } as Answer;
}

/** What a client developer writes on top of the generated types: every documented answer handled. */
function describeAnswer(answer: Answer): string {
  switch (answer.status) {
    case 200:
      return `stored ${answer.body.name}${answer.body.tag === undefined ? '' : ` (${answer.body.tag})`}`;
    case 409:
      return `taken: ${answer.body.message}`;
    case 400:
    case 401:
    case 403:
    case 408:
    case 413:
    case 415:
    case 500:
    case 503:
      return `${answer.body.error}: ${answer.body.message}`;
  }
}

describe('a client generated from the OpenAPI document the core exports', () => {
  let app: RunningExample;
  let client: Client<paths>;
  let anonymous: Client<paths>;

  beforeAll(async () => {
    app = await startExample();
    // As docs/guides/openapi.md shows it: the token added to every request by a middleware.
    client = createClient<paths>({ baseUrl: app.origin });
    client.use({
      onRequest({ request }) {
        request.headers.set('Authorization', `Bearer ${app.token}`);
        return request;
      },
    });
    anonymous = createClient<paths>({ baseUrl: app.origin });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('serves the document at GET /openapi.json, as createOpenApiDocument builds it', async () => {
    const response = await fetch(`${app.origin}/openapi.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(
      createOpenApiDocument({ serverUrl: 'https://plants.example.com', basePath: '/api' }),
    );
  });

  it('generates from the served document the types the typed tests compile against', async () => {
    // test/generated/ holds what generateTestTypes() writes from createOpenApiDocument({ basePath }).
    const served = await (await fetch(`${app.origin}/openapi.json`)).text();
    const from = CORE_DOCUMENT_NAME;
    const compiledAgainst = await generateTestTypes();
    expect(await generateTypes(served, { from })).toBe(compiledAgainst.get('plantstore-api.ts'));
    expect(await generateTypes(served, { from, int64AsBigInt: true })).toBe(
      compiledAgainst.get('int64/plantstore-api.ts'),
    );
  });

  it('gets the same types from the openapi-typescript CLI pointed at the running app', async () => {
    const cli = join(
      dirname(createRequire(import.meta.url).resolve('openapi-typescript/package.json')),
      'bin/cli.js',
    );
    const folder = await mkdtemp(join(tmpdir(), 'plantstore-openapi-'));
    try {
      const output = join(folder, 'plantstore.ts');
      // npx openapi-typescript http://localhost:3000/openapi.json -o src/plantstore.ts
      await promisify(execFile)(process.execPath, [
        cli,
        `${app.origin}/openapi.json`,
        '-o',
        output,
      ]);
      const fromCli = await formatTypeScript(withoutHeader(await readFile(output, 'utf8')));
      const served = await (await fetch(`${app.origin}/openapi.json`)).text();
      const fromApi = await generateTypes(served, { from: 'the served document' });
      expect(fromCli).toBe(withoutHeader(fromApi));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    // A second Node.js loading openapi-typescript and TypeScript, then Prettier twice: seconds alone,
    // more beside other CPU-bound files.
  }, 120_000);

  it('creates a plant: 200, with `data` typed as Plant', async () => {
    const { data, error, response } = await client.POST('/api/plants', {
      body: { id: 1, name: 'Monstera', tag: 'aroid' },
    });
    expectTypeOf(data).toEqualTypeOf<Plant | undefined>();
    expectTypeOf(error).toEqualTypeOf<ErrorBody | undefined>();
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data).toEqual({ name: 'Monstera', tag: 'aroid' });
    if (data !== undefined) expect(data.name.toUpperCase()).toBe('MONSTERA');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(app.store.get(1n)).toMatchObject({ id: 1n, name: 'Monstera', tag: 'aroid' });
  });

  it('answers a replay 200 with the stored plant, nothing doubled', async () => {
    const plant = { id: 2, name: 'Fern' };
    await client.POST('/api/plants', { body: plant });
    const replay = await client.POST('/api/plants', { body: plant });
    const answer = answerOf(replay);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ name: 'Fern' });
    expect(describeAnswer(answer)).toBe('stored Fern');
  });

  it('answers the same id with other content 409, with `error` typed as the Error body', async () => {
    await client.POST('/api/plants', { body: { id: 3, name: 'Ivy' } });
    const { data, error, response } = await client.POST('/api/plants', {
      body: { id: 3, name: 'Pothos' },
    });
    expect(response.status).toBe(409);
    expect(data).toBeUndefined();
    expect(error).toEqual({ error: 409, message: expect.any(String) as string });
    if (error !== undefined) expect(error.message).not.toContain('Ivy');
    const answer = answerOf({ data, error, response });
    if (answer.status !== 409) throw new Error(`expected 409, got ${answer.status}`);
    expectTypeOf(answer.body).toEqualTypeOf<ErrorBody>();
    expect(describeAnswer(answer)).toMatch(/^taken: /u);
    expect(app.store.get(3n)).toMatchObject({ id: 3n, name: 'Ivy' });
  });

  it('answers a body that fails the schema 400, naming the field', async () => {
    // The types allow any number; the route accepts only int64 integers.
    const { error, response } = await client.POST('/api/plants', {
      body: { id: 1.5, name: 'Half' },
    });
    expect(response.status).toBe(400);
    expect(error).toEqual({ error: 400, message: expect.stringContaining('id') as string });
    expect(describeAnswer(answerOf({ error, response }))).toMatch(/^400: /u);
  });

  it('answers a request without a token 401, with a Bearer challenge', async () => {
    const { data, error, response } = await anonymous.POST('/api/plants', {
      body: { id: 4, name: 'Nobody' },
    });
    expect(response.status).toBe(401);
    expect(data).toBeUndefined();
    expect(error).toEqual({ error: 401, message: expect.any(String) as string });
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="plantstore"');
    expect(app.store.get(4n)).toBeUndefined();
  });

  describe('int64 ids', () => {
    it('loses digits past 2^53 when the id is a JS number: the types say number, JSON says so too', async () => {
      const id = 2 ** 53 + 1; // 9007199254740993 cannot be a JS number: this is ...992
      const { response } = await client.POST('/api/plants', { body: { id, name: 'Rounded' } });
      expect(response.status).toBe(200);
      expect(app.store.get(9007199254740993n)).toBeUndefined();
      expect(app.store.get(9007199254740992n)).toMatchObject({
        id: 9007199254740992n,
        name: 'Rounded',
      });
    });

    it('keeps every digit with bigint types and a bodySerializer that writes the digits', async () => {
      const exact = createClient<Int64Paths>({
        baseUrl: app.origin,
        headers: { Authorization: `Bearer ${app.token}` },
        bodySerializer: jsonWithBigInt,
      });
      for (const id of [9007199254740993n, 9223372036854775807n, -9223372036854775808n]) {
        const { data, response } = await exact.POST('/api/plants', { body: { id, name: 'Exact' } });
        expect(response.status).toBe(200);
        expect(data).toEqual({ name: 'Exact' });
        expect(app.store.get(id)).toMatchObject({ id, name: 'Exact' });
      }
      expectTypeOf<
        Int64Paths['/api/plants']['post']['requestBody']['content']['application/json']['id']
      >().toEqualTypeOf<bigint>();
    });

    it('answers 400 for an id one past the int64 range, sent exactly', async () => {
      const exact = createClient<Int64Paths>({
        baseUrl: app.origin,
        headers: { Authorization: `Bearer ${app.token}` },
        bodySerializer: jsonWithBigInt,
      });
      const { error, response } = await exact.POST('/api/plants', {
        body: { id: 9223372036854775808n, name: 'Too big' },
      });
      expect(response.status).toBe(400);
      expect(error?.error).toBe(400);
    });
  });
});
