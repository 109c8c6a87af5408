export { describeStoreConformance } from './store-conformance';
export type { StoreConformanceOptions, TestRegistrar } from './store-conformance';
export { createTokenIssuer } from './token-issuer';
export type {
  OutageMode,
  SignOptions,
  TokenIssuer,
  TokenIssuerAlgorithm,
  TokenIssuerOptions,
} from './token-issuer';
export { serviceUrl } from './service-url';
