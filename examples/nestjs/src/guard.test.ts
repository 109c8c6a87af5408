import 'reflect-metadata';
import { Controller, Delete, Get, Module, Req, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createPlantService, type PlantService, type Principal } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import { plantPlugin } from '@plantstore/fastify';
import {
  ADMIN_GUARD,
  describeGuardContract,
  guardedBody,
  type GuardTarget,
} from '@plantstore/http-suite';
import { Auth, PlantsAuth } from './plants-auth';
import { PLANT_SERVICE } from './tokens';

// The recipe's guard and decorator on both of Nest's platforms, through the guard contract: a
// guarded route answers every auth refusal as the plants route does.

@Controller('api')
class ThingsController {
  @Get('things')
  @UseGuards(PlantsAuth())
  list(@Req() request: { method: string }, @Auth() auth: Principal | undefined): unknown {
    return JSON.parse(guardedBody(request.method, auth?.subject, new Uint8Array()));
  }

  @Delete('things/:id')
  @UseGuards(PlantsAuth())
  remove(@Req() request: { method: string }, @Auth() auth: Principal | undefined): unknown {
    return JSON.parse(guardedBody(request.method, auth?.subject, new Uint8Array()));
  }

  @Get('admin')
  @UseGuards(PlantsAuth(ADMIN_GUARD))
  admin(@Req() request: { method: string }, @Auth() auth: Principal | undefined): unknown {
    return JSON.parse(guardedBody(request.method, auth?.subject, new Uint8Array()));
  }
}

function thingsModule(plants: PlantService) {
  @Module({
    controllers: [ThingsController],
    providers: [{ provide: PLANT_SERVICE, useValue: plants }],
  })
  class ThingsModule {}
  return ThingsModule;
}

const running = async (app: NestExpressApplication | NestFastifyApplication) => {
  await app.listen(0, '127.0.0.1');
  return {
    url: `${await app.getUrl()}/api`,
    close: async () => {
      app.getHttpServer().closeAllConnections();
      await app.close();
    },
  };
};

const onExpress: GuardTarget = {
  async start(options) {
    const plants = createPlantService(options);
    const app = await NestFactory.create<NestExpressApplication>(thingsModule(plants), {
      logger: false,
    });
    app.use('/api', plantRouter(plants));
    return running(app);
  },
};

const onFastify: GuardTarget = {
  async start(options) {
    const plants = createPlantService(options);
    const app = await NestFactory.create<NestFastifyApplication>(
      thingsModule(plants),
      new FastifyAdapter(),
      { logger: false },
    );
    await app.register(plantPlugin(plants), { prefix: '/api' });
    return running(app);
  },
};

// Nest's body parsers run before its guards, and its handlers here read no body.
const NEST_DECIDES = {
  'guard.before-body': "Nest's body parser reads the body before any guard runs",
  'guard.body-whole': "Nest's JSON parser judges the body before any guard runs",
};

describeGuardContract('NestJS 11 (Express platform)', onExpress, { decides: NEST_DECIDES });
describeGuardContract('NestJS 11 (Fastify platform)', onFastify, { decides: NEST_DECIDES });
