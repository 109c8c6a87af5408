// `@plantstore/core`: what an app author writes, and what a custom store's author implements.
// Named exports only, so that this list is the entry's whole face; `entries/entries.test.ts` locks
// it. The presets are `@plantstore/core/providers`, a framework adapter's helpers and the option
// checks `@plantstore/core/adapter`, the OpenAPI functions `@plantstore/core/openapi` (packages/core
// README, "Entries", says which name lives where and why).

// The service, its options and hooks.
export { createPlantService } from './service/service';
export type { PlantService } from './service/service';
export type { Hook, HookContext, PlantServiceOptions } from './service/service-options';
export type { LoggedCause, LoggedFailure, PlantLogger } from './service/logger';
export type {
  ResourceMetadataEndpoint,
  ResourceMetadataOptions,
} from './service/resource-metadata';
export { CREATE_TRACING_CHANNEL } from './service/diagnostics';
export type {
  CreateFailureMessage,
  CreateStartMessage,
  CreateSuccessMessage,
  CreateTraceMessage,
} from './service/diagnostics';
export { createNodeHandler } from './service/node-handler';
export type { NodeHandler } from './service/node-handler';

// The guard of a host's other routes, made from the service: the same auth, per-route checks.
export { guard } from './guard/fetch-guard';
export type { FetchGuard, FetchGuardResult } from './guard/fetch-guard';
export type { ClaimRequirement, ClaimValue, GuardOptions } from './guard/guard-options';

// The verifiers, their options, and the interface a verifier of your own implements.
export { jwtBearer } from './auth/jwt/jwt-bearer';
// The verifier, its options, then the parts of its options, as a reader meets them.
export type {
  JwtBearer,
  JwtBearerOptions,
  JwtBearerOptionFields,
  JwtBearerIssuerOptions,
  JwtBearerIssuerFields,
  JwtBearerJwksOptions,
  JwtBearerAudienceCheck,
  JwsAlgorithm,
  DpopOptions,
  DpopNonceOptions,
  MtlsOptions,
  DpopBinding,
  CertificateBinding,
} from './auth/jwt/jwt-bearer';
export type { AccessTokenProfile } from './auth/jwt/options/access-token-options';
export { tokenIntrospection } from './auth/introspection/token-introspection';
export type {
  IntrospectionClientAuthentication,
  TokenIntrospection,
  TokenIntrospectionCacheOptions,
  TokenIntrospectionOptions,
} from './auth/introspection/token-introspection';
export type { AcceptedCredentials, AuthRequest, Authenticator } from './auth/authenticator';
export type { Principal } from './auth/principal';
export { certificateThumbprint } from './auth/mtls/certificate-thumbprint';
export type { ClientCertificate } from './auth/mtls/client-certificate';
export { dpopBinding } from './auth/dpop/dpop-binding';
export { certificateBinding } from './auth/mtls/mtls-options';
export { memoryReplayStore } from './auth/dpop/memory-replay-store';
export type { MemoryReplayStoreOptions } from './auth/dpop/memory-replay-store';
export type { ReplayContext, ReplayStore } from './auth/dpop/replay-store';

// The store interface, the memory store, and the plant as a store sees it.
export { memoryStore } from './plant/memory-store';
export type { MemoryStore } from './plant/memory-store';
export type { MemoryOutbox } from './plant/memory-outbox';
export type { EventsOptions } from './events/events-option';
export type { InsertResult, PlantStore, StoreContext } from './plant/store';
export { cancellation } from './common/cancellation';
export type { Cancellation } from './common/cancellation';
export type { NewPlant, Plant, PlantRecord, StoredPlant } from './plant/plant';
export { isSameOwner } from './plant/owner';
export type { OwnerCheck } from './plant/owner';
export type { TenantOption } from './plant/tenant';
export { INT64_MAX, INT64_MIN } from './body/body-limits';

// The errors: one class per kind of failure; a class's codes are `XError['code']`.
export { isPlantServiceError, PlantServiceError } from './errors/plant-service-error';
export type { PlantServiceErrorOptions } from './errors/plant-service-error';
// In the order of their statuses: 400, 401, 403; then 400 to 415.
export {
  BearerError,
  MalformedAuthorizationError,
  MissingTokenError,
  InvalidTokenError,
  InvalidDpopProofError,
  UseDpopNonceError,
  InsufficientScopeError,
} from './errors/bearer-errors';
export {
  ClaimMismatchError,
  InvalidBodyError,
  NotFoundError,
  MethodNotAllowedError,
  RequestTimeoutError,
  ConflictError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from './errors/client-errors';
export type { FieldIssue } from './errors/client-errors';
export { InternalServerError, ServiceUnavailableError } from './errors/server-errors';
export type { AuthScheme, BearerChallenge, ChallengeContext } from './errors/challenges';
export type { AnyPlantServiceError } from './errors/error-union';
export type { PlantServiceErrorCode } from './errors/error-codes';
