import type {
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyHandler,
  APIGatewayProxyHandlerV2,
  APIGatewayProxyResult,
  APIGatewayProxyStructuredResultV2,
  LambdaFunctionURLHandler,
} from 'aws-lambda';
import { expectTypeOf } from 'vitest';
import {
  type HttpApiEvent,
  type HttpApiResult,
  lambdaHandler,
  requestOfEvent,
  type RestApiEvent,
  type RestApiResult,
} from '../src/index';

// Type tests against @types/aws-lambda, the types most functions are written with: checked by
// `tsc -p packages/aws-lambda/tsconfig.json` (never run). The package does not depend on them.
declare const fetch: (request: Request) => Promise<Response>;
declare const v2: APIGatewayProxyEventV2;
declare const v1: APIGatewayProxyEvent;

// Its events are the entry's events: `version: string` (AWS sends '2.0') fits HttpApiEvent.
export const httpApiEvent: HttpApiEvent = v2;
export const restApiEvent: RestApiEvent = v1;
expectTypeOf(requestOfEvent(v2)).toEqualTypeOf<Request>();

// The handler is the handler those types describe, for each kind of event.
export const httpApi: APIGatewayProxyHandlerV2 = lambdaHandler(fetch);
export const functionUrl: LambdaFunctionURLHandler = lambdaHandler(fetch);
export const restApi: APIGatewayProxyHandler = lambdaHandler(fetch);

// And it answers each event with that event's result.
const handler = lambdaHandler(fetch);
expectTypeOf(handler(v2)).resolves.toEqualTypeOf<HttpApiResult>();
expectTypeOf(handler(v1)).resolves.toEqualTypeOf<RestApiResult>();
expectTypeOf<HttpApiResult>().toExtend<APIGatewayProxyStructuredResultV2>();
expectTypeOf<RestApiResult>().toExtend<APIGatewayProxyResult>();
