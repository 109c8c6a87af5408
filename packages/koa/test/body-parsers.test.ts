import bodyParser from '@koa/bodyparser';
import type { PlantServiceError } from '@plantstore/core';
import { expectError, listen, send, useHostFixture } from '@plantstore/http-suite';
import { KOA_MAJORS, nodeListener } from '@plantstore/http-suite/hosts';
import type Koa from 'koa';
import koaBodyParser from 'koa-bodyparser';
import { afterEach, describe, expect, it } from 'vitest';
import { plantRoutes } from '../src/index';

type Parser = () => Koa.Middleware;

const fixture = useHostFixture();

// What a host gets with each parser; the cases of the contract suite that the parser decides are
// listed in contract-matrix.ts.
describe.each([
  ['@koa/bodyparser', () => bodyParser()],
  ['koa-bodyparser', () => koaBodyParser()],
] as const satisfies readonly (readonly [string, Parser])[])('with %s', (_, parser) => {
  const rejected: PlantServiceError[] = [];
  const emitted: unknown[] = [];

  afterEach(() => {
    rejected.length = 0;
    emitted.length = 0;
  });

  const start = async (order: 'parser first' | 'route first'): Promise<string> => {
    const plants = plantRoutes({
      ...fixture.options({ onRejected: (error) => void rejected.push(error) }),
      prefix: '/api',
    });
    const app = new KOA_MAJORS['Koa 3']();
    app.on('error', (error: unknown) => void emitted.push(error));
    app.use(order === 'parser first' ? parser() : plants);
    app.use(order === 'parser first' ? plants : parser());
    app.use((ctx) => {
      ctx.body = { hostSaw: ctx.request.body };
    });
    return fixture.track(await listen(nodeListener(app))).url;
  };

  const create = (url: string, body: string | Buffer, contentType = 'application/json') =>
    fixture.post(url, body, { path: '/api/plants', headers: { 'content-type': contentType } });

  it('uses the raw text the parser kept, so a lone surrogate and U+0000 are still refused', async () => {
    const url = await start('parser first');
    expectError(await create(url, '{"id":1,"name":"\\ud800"}'), 400);
    expectError(await create(url, '{"id":1,"name":"a\\u0000b"}'), 400);
    expect(rejected.map((error) => error.code)).toEqual([
      'body_lone_surrogate',
      'string_contains_nul',
    ]);
  });

  it('refuses the U+FFFD the parser decoded, which invalid UTF-8 and a sent U+FFFD both become', async () => {
    const url = await start('parser first');
    for (const bytes of [[0xff], [0xef, 0xbf, 0xbd]]) {
      const body = Buffer.concat([
        Buffer.from('{"id":1,"name":"'),
        Buffer.from(bytes),
        Buffer.from('"}'),
      ]);
      expectError(await create(url, body), 400, /send the character as the JSON escape/);
    }
    expect((await create(url, '{"id":1,"name":"\\ufffd"}')).status).toBe(200);
    expect(rejected.map((error) => error.code)).toEqual([
      'body_decoded_by_host',
      'body_decoded_by_host',
    ]);
  });

  it('reads the stream itself when the parser left a media type it does not parse', async () => {
    const url = await start('parser first');
    expectError(await create(url, '{"id":1,"name":"a"}', 'text/plain'), 415);
    expectError(await create(url, '{"id":1,"name":"a"}', 'application/jsonx'), 415);
    expect(emitted).toEqual([]);
  });

  it("leaves malformed JSON to the parser's own 400, which the host's error handling sees", async () => {
    const url = await start('parser first');
    const reply = await create(url, '{"id":1,');
    expect(reply.status).toBe(400);
    expect(reply.json).toBeUndefined();
    expect(emitted).toHaveLength(1);
  });

  it('answers malformed JSON itself when mounted before the parser, which still serves the host', async () => {
    const url = await start('route first');
    expectError(await create(url, '{"id":1,'), 400, /not valid JSON/);
    const hostRoute = await send(url, {
      path: '/elsewhere',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(hostRoute.json).toEqual({ hostSaw: { a: 1 } });
    expect(emitted).toEqual([]);
  });
});
