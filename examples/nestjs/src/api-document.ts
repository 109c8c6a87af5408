import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { addPlantRoute, type AddPlantRouteOptions } from '@plantstore/core/openapi';

/**
 * The app's one OpenAPI document: what `@nestjs/swagger` finds in its controllers, plus the plants
 * route at its mount path (`app.use('/api', plantRouter(…))` is not a controller, so Nest cannot
 * see it). A component of the route's names that the app already has is refused at start-up
 * rather than silently replaced: pass `componentPrefix` then.
 *
 * @param app - the application, controllers registered
 * @param plants - where the route is mounted and the scopes it requires
 * @returns the document, for `SwaggerModule.setup` or a JSON route
 */
export function createApiDocument(
  app: INestApplication,
  plants: AddPlantRouteOptions = { basePath: '/api' },
): OpenAPIObject {
  const config = new DocumentBuilder().setTitle('Garden').setVersion('1.0.0').build();
  return addPlantRoute(SwaggerModule.createDocument(app, config), plants);
}
