export { createPlantService, isPlantService } from './service/service';
export type { PlantService } from './service/service';
export type { Hook, HookContext, PlantServiceOptions } from './service/service-options';
export type { PlantLogger } from './service/logger';
export { resourceMetadataRoute } from './service/resource-metadata-route';
export type { ResourceMetadataRoute } from './service/resource-metadata-route';
export { CREATE_TRACING_CHANNEL } from './service/diagnostics';
export type {
  CreateFailureMessage,
  CreateStartMessage,
  CreateSuccessMessage,
  CreateTraceMessage,
} from './service/diagnostics';

// jwtBearer, and every type of its options (the module's public face is exactly that).
export * from './auth/jwt/jwt-bearer';
// tokenIntrospection, and every type of its options.
export * from './auth/introspection/token-introspection';
export type { AccessTokenProfile } from './auth/jwt/options/access-token-options';
export type { AcceptedCredentials, AuthRequest, Authenticator } from './auth/authenticator';
// Identity-provider presets (docs/providers.md): each module's public face is its preset function
// and the types of its options and result.
export * from './auth/presets/auth0';
export * from './auth/presets/entra-id';
export * from './auth/presets/entra-id-multi-tenant';
export * from './auth/presets/okta';
export * from './auth/presets/cognito';
export * from './auth/presets/keycloak';
export * from './auth/presets/firebase';
export * from './auth/presets/supabase';
export * from './auth/presets/clerk';
export * from './auth/presets/zitadel';
export * from './auth/presets/authentik';
export * from './auth/presets/ory-hydra';
export type { EntraIdAppOptions, EntraIdTokenVersion } from './auth/presets/entra-id-versions';
export { certificateThumbprint } from './auth/mtls/certificate-thumbprint';
export type { ClientCertificate } from './auth/mtls/client-certificate';
export type {
  ResourceMetadataEndpoint,
  ResourceMetadataOptions,
} from './service/resource-metadata';
export type { Principal } from './auth/principal';
export { dpopBinding } from './auth/dpop/dpop-binding';
export { certificateBinding } from './auth/mtls/mtls-options';
export { memoryReplayStore } from './auth/dpop/memory-replay-store';
export type { MemoryReplayStoreOptions } from './auth/dpop/memory-replay-store';
export type { ReplayContext, ReplayStore } from './auth/dpop/replay-store';

export { memoryStore } from './plant/memory-store';
export type { MemoryStore } from './plant/memory-store';
export type { InsertResult, PlantStore, StoreContext } from './plant/store';
export { cancellation } from './common/cancellation';
export type { Cancellation } from './common/cancellation';
export type { NewPlant, Plant } from './plant/plant';

export { ErrorSchema, NewPlantSchema, PlantSchema } from './plant/schemas';
export { INT64_MAX, INT64_MIN } from './body/body-limits';
export { createOpenApiDocument, openApiDocument } from './openapi/openapi-document';
export { addPlantRoute } from './openapi/add-plant-route';
export { plantOperation } from './openapi/plant-operation';
export type { PlantOperation } from './openapi/plant-operation';
export type {
  AddPlantRouteOptions,
  OpenApiDocument,
  OpenApiHostDocument,
  OpenApiOptions,
} from './openapi/openapi-types';

export { createNodeHandler, writeAnswer } from './service/node-handler';
export { nodeHeaderReader } from './http/node-headers';
export { LINGER_BYTES, LINGER_MS, lingerOnClose } from './http/lingering-close';
export type { NodeHandler } from './service/node-handler';
export type {
  BodySource,
  HeaderReader,
  HeaderSource,
  HeaderValue,
  PlantAnswer,
  PlantRequest,
  WholeBody,
} from './http/request';

export type { AuthScheme, BearerChallenge, ChallengeContext } from './errors/challenges';
// Every export of these modules is public: the error classes, their codes and FieldIssue.
export * from './errors/bearer-errors';
export * from './errors/client-errors';
export * from './errors/server-errors';
export { isPlantServiceError, PlantServiceError } from './errors/plant-service-error';
export type { PlantServiceErrorOptions } from './errors/plant-service-error';
export type { AnyPlantServiceError } from './errors/error-union';
export type * from './errors/error-codes';
