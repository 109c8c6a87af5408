// What the service tests share: the HS256 secret their tokens are signed with, and the service they
// call when a test is about one option.
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { memoryStore } from '../plant/memory-store';
import { createPlantService } from './service';
import type { PlantServiceOptions } from './service-options';

/** The HS256 secret of the service tests' tokens. */
export const TEST_SECRET = new TextEncoder().encode('a-test-secret-that-is-at-least-32-bytes-long');

/** A service on a fresh memory store behind the test secret, logging nowhere, with the options given. */
export const quietService = (options: Partial<PlantServiceOptions> = {}) =>
  createPlantService({
    logger: false,
    store: memoryStore(),
    auth: jwtBearer({ secret: TEST_SECRET }),
    ...options,
  });
