import { type DynamicModule, Module } from '@nestjs/common';
import type { PlantService } from '@plantstore/core';
import { GardenController } from './garden.controller';
import { HealthController } from './health.controller';
import { PlantsLifecycle } from './plants-lifecycle';
import { PLANT_SERVICE } from './tokens';

/** The application module: its own controllers, and the plants service as a provider. */
@Module({})
export class AppModule {
  /**
   * @param plants - the service the route serves, made by the caller (the server or a test)
   * @returns the module with the service under {@link PLANT_SERVICE}
   */
  static register(plants: PlantService): DynamicModule {
    return {
      module: AppModule,
      controllers: [GardenController, HealthController],
      providers: [{ provide: PLANT_SERVICE, useValue: plants }, PlantsLifecycle],
    };
  }
}
