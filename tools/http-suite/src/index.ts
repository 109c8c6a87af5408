// The contract suite and the fixture, which need vitest, and the few clients and hosts the adapters'
// contract files have always taken from here. Everything else of the kit is in `./client` and
// `./hosts`, which scripts and host processes outside vitest import too.
export * from './contract/index';
export { brokenService, useHostFixture } from './fixture';
export { describeGuardContract } from './guard/guard-contract';
export {
  expressGuardTarget,
  fastifyGuardTarget,
  fetchGuardTarget,
  koaGuardTarget,
} from './guard/guard-hosts';
export type {
  ExpressGuardFactory,
  FastifyGuardFactory,
  KoaGuardFactory,
} from './guard/guard-hosts';
export { ADMIN_GUARD, guardedBody, readAll } from './guard/guard-target';
export type { GuardTarget } from './guard/guard-target';
export type { HostFixture } from './fixture';
export { send } from './client/send';
export type { ClientTls, Outgoing, Reply } from './client/send';
export { listen } from './hosts/listen';
export type { ContractHost, ContractTarget } from './hosts/target';
export type { ContractAuth, ContractDpop, ContractIssuer, ContractSetup } from './contract-setup';
export type { ContractMtls, ContractTls } from './contract-setup';
export { startBridge } from './remote/bridge';
export type { Bridge } from './remote/bridge';
export { remoteTarget } from './remote/remote-target';
export type { LaunchHost } from './remote/remote-target';
export { findRuntime, requireRuntime } from './runtime/runtime-binary';
export type { RuntimeBinary, RuntimeName } from './runtime/runtime-binary';
export { runtimeDecides, workerdDecides } from './runtime/runtime-decides';
export { startRuntime } from './runtime/runtime-process';
export type { RuntimeCommand, RuntimeProcess } from './runtime/runtime-process';
export { describeExampleServer } from './runtime/example-suite';
export { createPlant } from './runtime/framework-front';
export type { LaunchExample, RunningExample } from './runtime/example-suite';
export { testCertificates } from './tls/test-certificates';
export type { TestCertificate, TestCertificates } from './tls/test-certificates';
export { contractTls, tlsServer, tlsServerOptions } from './tls/tls-server';
export type { TlsServerOptions } from './tls/tls-server';
