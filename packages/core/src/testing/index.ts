export { describeStoreConformance } from './store-conformance';
export { storeRecord } from './store-context';
export type { StoreConformanceOptions, TestRegistrar } from './store-conformance';
export { describeOutboxConformance } from './outbox-conformance';
export { describeReplayStoreConformance } from './replay-store-conformance';
export type { ReplayStoreConformanceOptions } from './replay-store-conformance';
export type { SilentStoreOptions } from './lifecycle-cases';
export type { SilentServer } from './silent-server';
export { silentStoreOn } from './silent-store';
export { createTokenIssuer } from './token-issuer';
export type {
  OutageMode,
  SignOptions,
  TokenIssuer,
  TokenIssuerAlgorithm,
  TokenIssuerOptions,
} from './token-issuer';
export { serviceUrl } from './service-url';
export { createDpopClient } from './dpop-client';
export type {
  DpopClient,
  DpopClientAlgorithm,
  DpopProofOptions,
  DpopProofTarget,
} from './dpop-client';
export { createProviderIssuer } from './provider-issuer';
export type {
  ProviderIssuer,
  ProviderName,
  ProviderPresetOptions,
  ProviderSignOptions,
} from './provider-issuer';
