// The contract suite: its runner, the helpers its runners share, and what a host may skip.
export { describeHttpContract } from './describe';
export type { ContractOptions } from './describe';
export {
  closingExchangeSkips,
  exchangeSkips,
  exchangeTestName,
  rawCaseSkips,
} from './cases/exchange-host';
export type { RawCaseName } from './cases/exchange-host';
export { EXCHANGES } from './cases/exchanges';
export { certificateHeaderSkips, tlsCaseSkips } from './cases/mtls';
export { contractView, expectError, expectRouteHeaders } from './expect';
export * from './mounted';
export { describeStoreContract } from './store-contract';
export type { StoreContractAdapters } from './store-contract';
