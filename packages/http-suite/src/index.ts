export { describeHttpContract, expectError, expectRouteHeaders } from './contract';
export type { ContractHost, ContractTarget } from './contract';
export { listen } from './listen';
export { send } from './send';
export type { Outgoing, Reply } from './send';
