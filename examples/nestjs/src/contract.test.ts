import 'reflect-metadata';
import {
  type DynamicModule,
  Inject,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  RequestMethod,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  createPlantService,
  jwtBearer,
  memoryStore,
  type PlantServiceOptions,
  type PlantServiceError,
} from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { plantRouter, protectedResourceMetadata } from '@plantstore/express';
import {
  capturedLogger,
  type ContractHost,
  type ContractSetup,
  describeHttpContract,
  exchangesDecided,
  PARSER_CAN_CHANGE,
  expectError,
  send,
  tlsServerOptions,
} from '@plantstore/http-suite';
import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The catch-all the suite expects behind the route: 200 `host:<METHOD> <path>`. */
const hostCatchAll: RequestHandler = (req, res) => {
  res.type('text/plain').send(`host:${req.method} ${req.originalUrl.split('?')[0] ?? ''}`);
};

/**
 * Cases that Nest's JSON parser (body-parser 2, `express.json()`) decides before a route mounted as
 * Nest middleware runs; `rawBody: true` keeps everything else exact.
 */
const DECIDED_BY_NEST_PARSER: Readonly<Record<string, string>> = {
  'body.not-json': "the parser's 400 goes to Nest's exception layer",
  'auth.before-body':
    'the parser reads the body (over its limit, drains it to the end) before the route sees the token',
  'limits.read-timeout': 'the parser waits for the body without a time-out',
  'limits.media-type':
    "the parser refuses charset=latin1 (415) and the false gzip body (400) through Nest's exception layer",
  ...exchangesDecided(
    ['not JSON', 'invalid UTF-8', 'latin1', 'gzip'],
    "the parser reads the body first, and refuses these (400, 415) through Nest's exception layer",
  ),
  'raw.huge': 'the parser reads the body before the route sees the token',
  'raw.huge-415': 'the parser reads the body first',
  'raw.linger': 'the parser reads the body before the route sees the token',
};

const ROUTE = Symbol('route');

/** Mounts the route the Nest way: as middleware of a module, for `POST api/plants`. */
@Module({})
class RouteModule implements NestModule {
  constructor(@Inject(ROUTE) private readonly route: RequestHandler) {}

  static with(route: RequestHandler): DynamicModule {
    return { module: RouteModule, providers: [{ provide: ROUTE, useValue: route }] };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(this.route).forRoutes({ path: 'api/plants', method: RequestMethod.POST });
    consumer.apply(hostCatchAll).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}

@Module({})
class EmptyModule {}

/** Nest makes its server itself: HTTPS asking for a client certificate, when the suite wants TLS. */
const serverOptions = (setup: ContractSetup | undefined) =>
  setup?.tls === undefined ? {} : { httpsOptions: tlsServerOptions(setup.tls) };

async function listening(app: NestExpressApplication): Promise<ContractHost> {
  await app.listen(0, '127.0.0.1');
  const url = `${await app.getUrl()}/api`;
  return {
    url,
    close: async () => {
      app.getHttpServer().closeAllConnections();
      await app.close();
    },
  };
}

describe('NestJS 11, the route mounted with app.use() before listen()', () => {
  // Nest adds its body parsers at init, behind the route: nothing is decided before it.
  describeHttpContract('NestJS 11, app.use() before listen()', {
    passesOn: true,
    async start(options: PlantServiceOptions, setup?: ContractSetup) {
      const app = await NestFactory.create<NestExpressApplication>(EmptyModule, {
        logger: false,
        ...serverOptions(setup),
      });
      const route = plantRouter(options);
      // RFC 9728 metadata at the root, when the suite turns it on.
      if (route.service.resourceMetadata !== undefined) {
        app.use(protectedResourceMetadata(route.service));
      }
      app.use('/api', route);
      app.use(hostCatchAll);
      return listening(app);
    },
  });
});

describe("NestJS 11, the route as module middleware behind Nest's parser, rawBody: true", () => {
  // Behind Nest's parser, at a path Nest gives the middleware whole: what a parser or a mounting
  // can change; the rest ran in full above.
  describeHttpContract(
    'NestJS 11, module middleware, rawBody: true',
    {
      passesOn: true,
      async start(options: PlantServiceOptions, setup?: ContractSetup) {
        // Nest middleware sees the whole path, so the service is told where it lives.
        const route = plantRouter(createPlantService({ ...options, basePath: '/api' }));
        const app = await NestFactory.create<NestExpressApplication>(RouteModule.with(route), {
          rawBody: true,
          logger: false,
          ...serverOptions(setup),
        });
        if (route.service.resourceMetadata !== undefined) {
          app.use(protectedResourceMetadata(route.service));
        }
        return listening(app);
      },
    },
    { only: [...PARSER_CAN_CHANGE, 'mounting'], decides: DECIDED_BY_NEST_PARSER },
  );
});

describe("NestJS 11, the route as module middleware behind Nest's parser", () => {
  let idp: TokenIssuer;
  let token: string;
  const hosts: ContractHost[] = [];
  beforeAll(async () => {
    idp = await createTokenIssuer();
    token = await idp.sign();
  });
  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.close()));
    await idp.close();
  });

  const hostWith = async (rawBody: boolean) => {
    const store = memoryStore();
    const rejected: PlantServiceError[] = [];
    const logger = capturedLogger();
    const auth = jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience });
    const route = plantRouter(
      createPlantService({
        store,
        auth,
        basePath: '/api',
        onRejected: (e) => void rejected.push(e),
        logger,
      }),
    );
    const app = await NestFactory.create<NestExpressApplication>(RouteModule.with(route), {
      rawBody,
      logger: false,
    });
    const host = await listening(app);
    hosts.push(host);
    const post = (body: string) =>
      send(host.url, {
        body,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    return { store, rejected, logger, post };
  };

  it('reads the bytes Nest kept with rawBody: true, so ids stay exact and duplicates are refused', async () => {
    const { store, rejected, post } = await hostWith(true);
    expect((await post('{"id":9007199254740993,"name":"Exact"}')).status).toBe(200);
    expect(store.get(9007199254740993n)?.name).toBe('Exact');
    expectError(await post('{"id":1,"name":"a","name":"b"}'), 400);
    expect(rejected.at(-1)?.code).toBe('body_duplicate_key');
  });

  it('has only the parsed value without rawBody, and creates nothing: a parsed id is not provably exact', async () => {
    const { store, rejected, logger, post } = await hostWith(false);
    expectError(await post('{"id":9007199254740993,"name":"Rounded"}'), 500);
    expect(rejected.at(-1)?.code).toBe('body_parsed_by_host');
    expectError(await post('{"id":1,"name":"a","name":"b"}'), 500);
    expect(rejected.at(-1)?.code).toBe('body_parsed_by_host');
    expect(store.size).toBe(0);
    // The misconfiguration is logged once, however many requests meet it.
    expect(logger.errors.map(({ failure }) => failure.code)).toEqual(['body_parsed_by_host']);
    expect(logger.warnings).toHaveLength(1);
  });
});
