export { lambdaHandler } from './lambda-handler';
export type { FetchHandler, LambdaHandler } from './lambda-handler';
export { requestOfEvent } from './event-request';
export { httpApiResult, restApiResult } from './event-result';
export { isHttpApiEvent } from './lambda-events';
export type {
  HttpApiEvent,
  HttpApiResult,
  LambdaHttpEvent,
  LambdaHttpResult,
  RestApiEvent,
  RestApiResult,
} from './lambda-events';
