import { createServer } from 'node:http';
import { jwtBearer, memoryStore, type PlantStoreError } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { type ContractHost, expectError, listen, send } from '@plantstore/http-suite';
import Koa3 from 'koa3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantRoutes } from '../src/index';
import { nodeListener } from './hosts';

describe('a raw body kept as bytes in ctx.request.rawBody', () => {
  let issuer: TokenIssuer;
  let token: string;
  const store = memoryStore();
  const rejected: PlantStoreError[] = [];
  let host: ContractHost | undefined;

  beforeAll(async () => {
    issuer = await createTokenIssuer();
    token = await issuer.sign();
    const app = new Koa3();
    // A host parser of its own that keeps the bytes, as a raw-body middleware would.
    app.use(async (ctx, next) => {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      // koa-bodyparser's typings declare `rawBody` a string on every request; this host keeps bytes.
      Object.assign(ctx.request, { rawBody: Buffer.concat(chunks) });
      await next();
    });
    app.use(
      plantRoutes({
        store,
        auth: jwtBearer({
          jwksUri: issuer.jwksUri,
          issuer: issuer.issuer,
          audience: issuer.audience,
        }),
        onRejected: (error) => void rejected.push(error),
      }),
    );
    host = await listen(createServer(nodeListener(app)));
  });
  afterAll(async () => {
    await host?.close();
    await issuer.close();
  });

  const post = (body: string | Buffer) =>
    send(host?.url ?? '', {
      body,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });

  it('is read by the strict reader: ids past 2^53 exact, invalid UTF-8 refused', async () => {
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
