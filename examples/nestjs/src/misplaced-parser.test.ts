import type { NestExpressApplication } from '@nestjs/platform-express';
import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { plantRouter } from '@plantstore/express';
import { NestFactory } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppModule } from './app.module';

// The mistake of issue 39: `app.useBodyParser('json')` before the route, so Nest's JSON parser has
// read every body (without its bytes) by the time the route runs.
describe('a Nest 11 app that calls useBodyParser before mounting the route', () => {
  let idp: TokenIssuer;
  let app: NestExpressApplication;
  let url: string;
  const warn = vi.fn<(message: string) => void>();
  const error = vi.fn<(message: string) => void>();

  beforeAll(async () => {
    idp = await createTokenIssuer();
    const plants = createPlantService({
      store: memoryStore(),
      auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
      logger: { warn, error },
    });
    app = await NestFactory.create<NestExpressApplication>(AppModule.register(plants), {
      logger: false,
    });
    app.useBodyParser('json');
    app.use('/api', plantRouter(plants));
    await app.listen(0, '127.0.0.1');
    url = `${await app.getUrl()}/api/plants`;
  });

  afterAll(async () => {
    await app.close();
    await idp.close();
  });

  const create = async (id: number) =>
    fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await idp.sign({ scope: 'plants:write' })}`,
        'content-type': 'application/json',
      },
      body: `{"id":${id},"name":"Monstera"}`,
    });

  it('answers each create 500 and warns once, naming useBodyParser and what to change', async () => {
    for (const id of [1, 2]) {
      const response = await create(id);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: 500,
        message: 'The plant could not be created because of an internal error.',
      });
    }
    expect(warn).toHaveBeenCalledTimes(1);
    const [line] = warn.mock.calls[0] ?? [''];
    expect(line).toMatch(/^plantstore: the host application's JSON body parser read /u);
    expect(line).toContain(
      'NestJS: app.use the route before app.useBodyParser() and before init()',
    );
    expect(line).toContain('NestFactory.create(AppModule, { rawBody: true })');
    // The 500 itself is logged too, once per 10 s, with its code.
    expect(error.mock.calls.map(([message]) => message)).toEqual([
      expect.stringMatching(/^plantstore: 500 body_parsed_by_host on POST \/api\/plants: /u),
    ]);
  });
});
