// The test hosts, apart from the contract suite: host processes outside vitest use them.
export {
  EXPRESS_AT_PREFIX,
  EXPRESS_AT_ROOT,
  EXPRESS_MAJORS,
  EXPRESS_MOUNTINGS,
  expressHostApp,
  expressTarget,
  hostCatchAll,
  hostErrorHandler,
} from './express-hosts';
export type {
  ExpressFactory,
  ExpressHostOptions,
  ExpressMetadataFactory,
  ExpressTargetOptions,
  ExpressMajor,
  ExpressMounting,
  PlantRouterFactory,
} from './express-hosts';
export {
  FASTIFY_AT_PREFIX,
  FASTIFY_AT_ROOT,
  FASTIFY_MAJORS,
  FASTIFY_MOUNTINGS,
  fastifyCatchAll,
  fastifyErrorHandler,
  fastifyHostApp,
  fastifyListener,
  fastifyTarget,
  startFastify,
} from './fastify-hosts';
export type {
  FastifyFactory,
  FastifyHostOptions,
  FastifyMajor,
  FastifyMetadataFactory,
  FastifyMounting,
  FastifyPlantPlugin,
  PlantPluginFactory,
} from './fastify-hosts';
export { hostRecord } from './host-hooks';
export type { HostHooks, HostRecord, ObservedAnswer } from './host-hooks';
export {
  KOA_AT_API,
  KOA_AT_ROOT,
  KOA_MAJORS,
  KOA_MOUNTINGS,
  koaHostApp,
  koaTarget,
  nodeListener,
} from './koa-hosts';
export type {
  KoaClass,
  KoaMajor,
  KoaMetadataFactory,
  KoaMounting,
  KoaRoute,
  KoaRouteAt,
  KoaRouteOptions,
  PlantRoutesFactory,
} from './koa-hosts';
export { listen } from './listen';
export { metadataFor } from './metadata-for';
export { fetchEntryTarget, nodeHandlerTarget } from './node-hosts';
export type { ContractHost, ContractTarget } from './target';
