import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { PlantService } from '@plantstore/core';
import { PLANT_SERVICE } from './tokens';

/** Ties the plants service to the Nest application's life: warmed at start-up, closed at shutdown. */
@Injectable()
export class PlantsLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Plantstore');

  constructor(@Inject(PLANT_SERVICE) private readonly plants: PlantService) {}

  /** Fetches the key set and reaches the store before the app listens: a bad setup fails start-up. */
  async onModuleInit(): Promise<void> {
    await this.plants.ready();
  }

  /** Runs on `app.close()`, and on SIGTERM or SIGINT once `enableShutdownHooks()` is on. */
  async onApplicationShutdown(signal?: string): Promise<void> {
    await this.plants.close();
    this.logger.log(`plants service closed${signal === undefined ? '' : ` on ${signal}`}`);
  }
}
