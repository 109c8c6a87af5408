export { describeStoreConformance } from './store-conformance';
export type { StoreConformanceOptions } from './store-conformance';
export { createTokenIssuer } from './token-issuer';
export type { TokenIssuer, TokenIssuerOptions, SignOptions } from './token-issuer';
