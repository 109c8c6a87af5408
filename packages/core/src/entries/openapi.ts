// `@plantstore/core/openapi`: the route described: its OpenAPI 3.1.0 document, the route added to a
// host's own document or as one operation, and the valibot schemas they are made from. Named
// exports only; `entries.test.ts` locks the list.

export { createOpenApiDocument, openApiDocument } from '../openapi/openapi-document';
export { addPlantRoute } from '../openapi/add-plant-route';
export { plantOperation } from '../openapi/plant-operation';
export type { PlantOperation } from '../openapi/plant-operation';
export type {
  AddPlantRouteOptions,
  OpenApiDocument,
  OpenApiHostDocument,
  OpenApiOptions,
} from '../openapi/openapi-types';
export { ErrorSchema, NewPlantSchema, PlantSchema } from '../plant/schemas';
