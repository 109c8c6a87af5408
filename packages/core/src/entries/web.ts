// `@plantstore/core` as Workers and Edge runtimes load it (the `workerd`, `edge-light` and `worker`
// conditions of package.json): the root entry's every name, with the `createPlantService` that
// carries no warm-up (service/web-service.ts says why). A name exported here shadows the one
// `export *` would bring, so the two entries keep one face; `entries.test.ts` checks it.
export * from '../index';
export { createPlantService } from '../service/web-service';
