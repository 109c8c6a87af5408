export { createPlantService, isPlantService } from './service/service';
export type { PlantService } from './service/service';
export type { Hook, HookContext, PlantServiceOptions } from './service/service-options';

export { jwtBearer } from './auth/jwt/jwt-bearer';
export type { JwsAlgorithm, JwtBearerJwksOptions, JwtBearerOptions } from './auth/jwt/jwt-bearer';
export type { AuthRequest, Authenticator, VerifyToken } from './auth/authenticator';
export type { Principal } from './auth/principal';

export { memoryStore } from './plant/memory-store';
export type { MemoryStore } from './plant/memory-store';
export type { InsertResult, PlantStore, StoreContext } from './plant/store';
export type { NewPlant, Plant } from './plant/plant';

export { ErrorSchema, NewPlantSchema, PlantSchema } from './plant/schemas';
export { INT64_MAX, INT64_MIN } from './body/read-plant-json';
export { createOpenApiDocument, openApiDocument } from './openapi/openapi-document';
export type { OpenApiDocument, OpenApiOptions } from './openapi/openapi-document';

export { createNodeHandler, writeAnswer } from './http/node-handler';
export { nodeHeaderReader } from './http/node-headers';
export type { NodeHandler } from './http/node-handler';
export type {
  BodySource,
  HeaderReader,
  HeaderSource,
  HeaderValue,
  PlantAnswer,
  PlantRequest,
} from './http/request';

export {
  BearerError,
  ConflictError,
  InsufficientScopeError,
  InternalServerError,
  InvalidBodyError,
  InvalidTokenError,
  isPlantStoreError,
  MalformedAuthorizationError,
  MethodNotAllowedError,
  MissingTokenError,
  NotFoundError,
  PayloadTooLargeError,
  PlantStoreError,
  RequestTimeoutError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
} from './errors/plant-store-error';
export type {
  BearerChallenge,
  FieldIssue,
  PlantStoreErrorCode,
  PlantStoreErrorOptions,
} from './errors/plant-store-error';
