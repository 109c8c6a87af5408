import { request as httpRequest, Agent } from 'node:http';
import { Transform } from 'node:stream';
import { memoryStore, type PlantServiceError } from '@plantstore/core';
import { expectError, send } from '@plantstore/http-suite';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { plantPlugin, type PlantPluginOptions } from '../src/index';
import { useFixture } from './fixture';
import {
  countingErrorHandler,
  type FastifyFactory,
  majors,
  postWithoutLength,
  start,
} from './hosts';

const fixture = useFixture();

/** A host with a JSON route of its own and the plugin; `before` adds the host's parsers and hooks. */
async function hostWith(
  fastify: FastifyFactory,
  before: (app: FastifyInstance) => void = () => undefined,
  options: Partial<PlantPluginOptions> = {},
  appOptions: FastifyServerOptions = {},
) {
  const store = memoryStore();
  const rejected: PlantServiceError[] = [];
  const app = fastify(appOptions);
  const hostErrors = countingErrorHandler(app);
  before(app);
  app.post('/echo', (request) => ({ body: request.body }));
  const onRejected = (error: PlantServiceError) => void rejected.push(error);
  await app.register(plantPlugin({ store, auth: fixture.auth(), onRejected, ...options }));
  const host = fixture.track(await start(app));
  return { host, store, rejected, hostErrors };
}

/** `POST {url}{path}` on a keep-alive connection; resolves with the status and `Connection` header. */
function keepAlivePost(url: string, path: string, headers: Record<string, string>, body: string) {
  const agent = new Agent({ keepAlive: true });
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
        agent.destroy();
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const [name, fastify] of majors) {
  describe(`${name}: the route reads its own body`, () => {
    it("never hands its body to the host's JSON parser, which still parses the host's routes", async () => {
      const parsed: string[] = [];
      const { host, store, rejected } = await hostWith(fastify, (app) =>
        app.addContentTypeParser(
          'application/json',
          { parseAs: 'string' },
          (request, text, done) => {
            parsed.push(request.url);
            done(null, JSON.parse(String(text)));
          },
        ),
      );
      const exact = await fixture.post(host.url, '{"id":9007199254740993,"name":"Exact"}');
      expect(exact.status).toBe(200);
      expect(store.get(9007199254740993n)?.name).toBe('Exact');
      expectError(await fixture.post(host.url, '{"id":1,"name":"a","name":"b"}'), 400);
      expect(rejected.at(-1)?.code).toBe('body_duplicate_key');
      expect(parsed).toEqual([]);
      const echo = await fixture.post(host.url, '{"a":1}', { path: '/echo' });
      expect(echo.json).toEqual({ body: { a: 1 } });
      expect(parsed).toEqual(['/echo']);
    });

    it("applies the route's limit, not Fastify's bodyLimit, and answers 413 in the route's shape", async () => {
      const { host, hostErrors } = await hostWith(fastify, undefined, {}, { bodyLimit: 64 });
      const name100 = 'x'.repeat(100);
      expect((await fixture.post(host.url, `{"id":1,"name":"${name100}"}`)).status).toBe(200);
      const big = `{"id":2,"name":"${'x'.repeat(16_384)}"}`;
      expectError(await fixture.post(host.url, big), 413);
      // Fastify's own limit still guards the host's routes, through the host's error handler.
      const echo = await fixture.post(host.url, `{"a":"${name100}"}`, { path: '/echo' });
      expect([echo.status, echo.json]).toMatchObject([413, { host: 'error handler' }]);
      expect(hostErrors).toHaveLength(1);
    });

    it('answers 413 and 408 with Connection: close, and keeps the connection of a 200', async () => {
      const { host } = await hostWith(fastify, undefined, { bodyLimit: 64, bodyTimeout: 200 });
      const headers = {
        authorization: `Bearer ${fixture.token}`,
        'content-type': 'application/json',
      };
      const ok = await keepAlivePost(host.url, '/plants', headers, '{"id":1,"name":"a"}');
      expect(ok).toEqual({ status: 200, connection: 'keep-alive' });
      const big = `{"id":2,"name":"${'x'.repeat(100)}"}`;
      const tooLarge = await keepAlivePost(host.url, '/plants', headers, big);
      expect(tooLarge).toEqual({ status: 413, connection: 'close' });
      const slow = await send(host.url, {
        headers: { ...headers, 'content-length': '40' },
        stallAfter: '{"id":3,',
      });
      expectError(slow, 408);
      expect(slow.headers.connection).toBe('close');
    });

    it('answers a Content-Type Fastify cannot parse as the route does: 401 without a token, else 415', async () => {
      const onError: unknown[] = [];
      const { host, rejected, hostErrors } = await hostWith(fastify, (app) =>
        app.addHook('onError', async (_request, _reply, error) => void onError.push(error.code)),
      );
      for (const contentType of ['json', '', 'application/json/x']) {
        const anonymous = await send(host.url, {
          body: '{"id":1,"name":"a"}',
          headers: { 'content-type': contentType },
        });
        expectError(anonymous, 401);
        const reply = await fixture.post(host.url, '{"id":1,"name":"a"}', {
          headers: { 'content-type': contentType },
        });
        expectError(reply, 415);
        expect(rejected.at(-1)?.code).toBe('media_type_unsupported');
      }
      expect(hostErrors).toEqual([]);
      // Fastify 5 raised its own error before the plugin's error handler answered; hooks see it.
      const raised = name === 'Fastify 4' ? 0 : 6;
      expect(onError).toEqual(
        Array.from({ length: raised }, () => 'FST_ERR_CTP_INVALID_MEDIA_TYPE'),
      );
    });

    it('answers a request without any body 415 without a Content-Type, else 400 body_empty', async () => {
      const { host, rejected } = await hostWith(fastify);
      const authorization = `Bearer ${fixture.token}`;
      const untyped = await postWithoutLength(`${host.url}/plants`, { authorization });
      expect(untyped.status).toBe(415);
      expect(rejected.at(-1)?.code).toBe('media_type_unsupported');
      const typed = await postWithoutLength(`${host.url}/plants`, {
        authorization,
        'content-type': 'application/json',
      });
      expect(typed.status).toBe(400);
      expect(JSON.parse(typed.text)).toMatchObject({ error: 400 });
      expect(rejected.at(-1)?.code).toBe('body_empty');
    });

    it("reads the stream a host preParsing hook returns, with the route's limit", async () => {
      const counted: number[] = [];
      const { host, store } = await hostWith(fastify, (app) =>
        app.addHook('preParsing', async (_request, _reply, payload) => {
          let bytes = 0;
          const counter = new Transform({
            transform(chunk: Buffer, _encoding, next) {
              bytes += chunk.length;
              next(null, chunk);
            },
            flush(next) {
              counted.push(bytes);
              next();
            },
          });
          return payload.pipe(counter);
        }),
      );
      const body = '{"id":9007199254740993,"name":"Counted"}';
      expect((await fixture.post(host.url, body)).status).toBe(200);
      expect(store.get(9007199254740993n)?.name).toBe('Counted');
      expect(counted).toEqual([body.length]);
      expectError(await fixture.post(host.url, `{"id":1,"name":"${'x'.repeat(16_384)}"}`), 413);
    });
  });
}
