export { createPlantService, isPlantService } from './service';
export type { PlantService } from './service';
export type { Hook, HookContext, PlantServiceOptions } from './options';

export { jwtBearer } from './jwt-bearer';
export type { JwsAlgorithm, JwtBearerJwksOptions, JwtBearerOptions } from './jwt-bearer';
export type { AuthRequest, Authenticator, VerifyToken } from './authenticator';
export type { Principal } from './principal';

export { memoryStore } from './memory-store';
export type { MemoryStore } from './memory-store';
export type { InsertResult, PlantStore, StoreContext } from './store';
export type { NewPlant, Plant } from './plant';

export { ErrorSchema, NewPlantSchema, PlantSchema } from './schemas';
export { INT64_MAX, INT64_MIN } from './read-plant-json';
export { createOpenApiDocument, openApiDocument } from './openapi';
export type { OpenApiDocument, OpenApiOptions } from './openapi';

export { createNodeHandler, writeAnswer } from './node-handler';
export { nodeHeaderReader } from './node-headers';
export type { NodeHandler } from './node-handler';
export type {
  BodySource,
  HeaderReader,
  HeaderSource,
  HeaderValue,
  PlantAnswer,
  PlantRequest,
} from './request';

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
} from './errors';
export type {
  BearerChallenge,
  FieldIssue,
  PlantStoreErrorCode,
  PlantStoreErrorOptions,
} from './errors';
