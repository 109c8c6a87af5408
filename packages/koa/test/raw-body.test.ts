import { memoryStore, type PlantServiceError } from '@plantstore/core';
import { expectError, listen, useHostFixture } from '@plantstore/http-suite';
import { KOA_MAJORS, nodeListener } from '@plantstore/http-suite/hosts';
import { describe, expect, it } from 'vitest';
import { plantRoutes } from '../src/index';

const fixture = useHostFixture();

describe('a raw body kept as bytes in ctx.request.rawBody', () => {
  it('is read by the strict reader: ids past 2^53 exact, invalid UTF-8 refused', async () => {
    const store = memoryStore();
    const rejected: PlantServiceError[] = [];
    const app = new KOA_MAJORS['Koa 3']();
    // A host parser of its own that keeps the bytes, as a raw-body middleware would.
    app.use(async (ctx, next) => {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      // koa-bodyparser's typings declare `rawBody` a string on every request; this host keeps bytes.
      Object.assign(ctx.request, { rawBody: Buffer.concat(chunks) });
      await next();
    });
    app.use(
      plantRoutes(fixture.options({ store, onRejected: (error) => void rejected.push(error) })),
    );
    const host = fixture.track(await listen(nodeListener(app)));

    const post = (body: string | Buffer) => fixture.post(host.url, body);
    expect((await post('{"id":9007199254740993,"name":"Bytes"}')).status).toBe(200);
    expect(store.get(9007199254740993n)?.name).toBe('Bytes');
    const invalid = Buffer.concat([
      Buffer.from('{"id":1,"name":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    expectError(await post(invalid), 400);
    expect(rejected.at(-1)?.code).toBe('body_invalid_utf8');
  });
});
