import 'reflect-metadata';
import { type LoggerService, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { memoryStore, type PlantServiceOptions } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import { plantPlugin, protectedResourceMetadata } from '@plantstore/fastify';
import {
  type ContractSetup,
  describeHttpContract,
  PARSER_CAN_CHANGE,
  send,
  tlsServerOptions,
} from '@plantstore/http-suite';
import { fastifyCatchAll } from '@plantstore/http-suite/hosts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// NestJS on its Fastify platform (docs/hosts/nestjs.md): the route is the Fastify plugin, registered on the
// Nest application, and Nest's own content-type parsers sit around it. What that platform can change
// is the parsing and the mounting; the rest of the contract runs on plain Fastify 5.

@Module({})
class EmptyModule {}

async function nestOnFastify(
  setup: ContractSetup | undefined,
  logger: LoggerService | false = false,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter(
    setup?.tls === undefined ? {} : { https: tlsServerOptions(setup.tls) },
  );
  return NestFactory.create<NestFastifyApplication>(EmptyModule, adapter, { logger });
}

describe('NestJS 11 on the Fastify platform, the route registered as the Fastify plugin', () => {
  describeHttpContract(
    'NestJS 11 (Fastify platform), app.register(plantPlugin)',
    {
      passesOn: true,
      async start(options: PlantServiceOptions, setup?: ContractSetup) {
        const app = await nestOnFastify(setup);
        const plugin = plantPlugin(options);
        if (plugin.service.resourceMetadata !== undefined) {
          await app.register(protectedResourceMetadata(plugin.service));
        }
        await app.register(plugin, { prefix: '/api' });
        fastifyCatchAll(app.getHttpAdapter().getInstance());
        await app.listen(0, '127.0.0.1');
        return {
          url: `${await app.getUrl()}/api`,
          close: async () => {
            app.getHttpServer().closeAllConnections();
            await app.close();
          },
        };
      },
    },
    { only: [...PARSER_CAN_CHANGE, 'mounting'] },
  );
});

describe("NestJS 11 on the Fastify platform, the Express adapter's router mounted by mistake", () => {
  let app: NestFastifyApplication;
  let url: string;
  const errors: unknown[] = [];
  beforeAll(async () => {
    // Nest answers the error itself and logs it: what a user sees of it.
    const logged = (message: unknown) => void errors.push(message);
    const logger = { log() {}, warn() {}, error: logged, fatal: logged };
    app = await nestOnFastify(undefined, logger);
    app.use(
      '/api',
      plantRouter({ store: memoryStore(), auth: { verify: () => Promise.resolve(undefined) } }),
    );
    await app.listen(0, '127.0.0.1');
    url = `${await app.getUrl()}/api`;
  });
  afterAll(() => app.close());

  it('fails each request with an error that names plantPlugin, not a TypeError from deep inside', async () => {
    const answer = await send(url, { body: '{"id":1,"name":"Fern"}' });
    expect(answer.status).toBe(500);
    expect(errors.map(String)).toStrictEqual([
      'TypeError: plantRouter: this request has no req.path, so it does not come from Express. On ' +
        "NestJS's Fastify platform, register plantPlugin from @plantstore/fastify instead " +
        '(docs/hosts/nestjs.md).',
    ]);
  });
});
