import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import type { PlantService } from '@plantstore/core';
import { PLANT_SERVICE } from './tokens';

/** The readiness probe: 200 when the key set and the store answer, 503 otherwise. */
@Controller('health')
export class HealthController {
  constructor(@Inject(PLANT_SERVICE) private readonly plants: PlantService) {}

  @Get()
  async check(): Promise<{ status: 'ok' }> {
    try {
      await this.plants.ready();
    } catch {
      throw new ServiceUnavailableException('The identity provider or the store is unavailable.');
    }
    return { status: 'ok' };
  }
}
