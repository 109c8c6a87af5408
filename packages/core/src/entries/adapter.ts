// `@plantstore/core/adapter`: what a framework adapter or a store package needs beside the root: the
// request and answer a service speaks, the node:http helpers, the RFC 9728 metadata route, and the
// core's option checks, so that every package words a misconfigured option the same way. Named
// exports only; `entries.test.ts` locks the list.

export { isPlantService } from '../service/service';
export { writeAnswer } from '../service/node-handler';
export { nodeHeaderReader } from '../http/node-headers';
export { LINGER_BYTES, LINGER_MS, lingerOnClose } from '../http/lingering-close';
export type {
  BodySource,
  HeaderReader,
  HeaderSource,
  HeaderValue,
  PlantAnswer,
  PlantRequest,
  WholeBody,
} from '../http/request';
export { requestGuard } from '../guard/request-guard';
export type { GuardResult, RequestGuard } from '../guard/request-guard';
export type { AuthStepRequest } from '../service/request-auth';
export { resourceMetadataRoute } from '../service/resource-metadata-route';
export type { ResourceMetadataRoute } from '../service/resource-metadata-route';
export {
  checkKnownOptions,
  describeValue,
  nonNegativeNumber,
  optionalBoolean,
  optionalFunction,
  optionError,
  wholeNumber,
} from '../options/check-options';
export type { Factory, WholeNumberRange } from '../options/check-options';
