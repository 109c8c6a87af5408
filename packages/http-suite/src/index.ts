// The contract suite and the fixture, which need vitest, and the few clients and hosts the adapters'
// contract files have always taken from here. Everything else of the kit is in `./client` and
// `./hosts`, which scripts and host processes outside vitest import too.
export { contractView, describeHttpContract, expectError, expectRouteHeaders } from './contract';
export { useHostFixture } from './fixture';
export type { HostFixture } from './fixture';
export { send } from './client/send';
export type { Outgoing, Reply } from './client/send';
export { listen } from './hosts/listen';
export type { ContractHost, ContractTarget } from './hosts/target';
