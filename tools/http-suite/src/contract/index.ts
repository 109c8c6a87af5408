// The contract suite: its runner, the helpers its runners share, and what a host may decide.
export { describeHttpContract } from './describe';
export { capturedLogger } from './captured-logger';
export type { CapturedLogger } from './captured-logger';
export { CASE_TAGS, caseRegistrar } from './coverage';
export type { CaseBody, CaseTag, HostCoverage, RegisterCase } from './coverage';
export { exchangeId, exchangesDecided } from './cases/exchange-host';
export { EXCHANGES } from './cases/exchanges';
export { contractView, expectError, expectRouteHeaders } from './expect';
export * from './mounted';
export { describeStoreContract } from './store-contract';
export type { StoreContractAdapters } from './store-contract';
