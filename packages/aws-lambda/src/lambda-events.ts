// The parts of the events and results this entry reads and writes, as AWS documents them. The
// shapes of `@types/aws-lambda` (APIGatewayProxyEventV2, APIGatewayProxyEvent, their handlers and
// results) fit them, under `exactOptionalPropertyTypes` too (test/aws-lambda-types.test-d.ts), so
// that package is not needed.

/**
 * An API Gateway HTTP API event in payload format 2.0, or a Lambda Function URL event (the same
 * shape, with `stage: '$default'`). Repeated headers arrive joined with commas, cookies in `cookies`.
 */
export interface HttpApiEvent {
  /** `'2.0'`. Typed as a string, as `@types/aws-lambda` types it: the entry checks the value. */
  readonly version: string;
  readonly rawPath: string;
  readonly rawQueryString?: string | undefined;
  readonly cookies?: readonly string[] | undefined;
  readonly headers?: Readonly<Record<string, string | undefined>> | undefined;
  readonly requestContext: {
    readonly domainName?: string | undefined;
    readonly stage?: string | undefined;
    readonly http: { readonly method: string };
  };
  readonly body?: string | undefined;
  readonly isBase64Encoded: boolean;
}

/**
 * An API Gateway REST API event (payload format 1.0), or what an HTTP API sends when set to 1.0
 * (with `version: '1.0'`, and the named stage in `path` under the `execute-api` domain). A REST
 * API's `path` is without the stage; repeated headers and query parameters are in the `multiValue`
 * fields.
 */
export interface RestApiEvent {
  readonly version?: '1.0' | undefined;
  readonly httpMethod: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | undefined>> | null | undefined;
  readonly multiValueHeaders?:
    Readonly<Record<string, readonly string[] | undefined>> | null | undefined;
  readonly queryStringParameters?: Readonly<Record<string, string | undefined>> | null | undefined;
  readonly multiValueQueryStringParameters?:
    Readonly<Record<string, readonly string[] | undefined>> | null | undefined;
  readonly requestContext?:
    | { readonly domainName?: string | undefined; readonly stage?: string | undefined }
    | null
    | undefined;
  readonly body?: string | null | undefined;
  readonly isBase64Encoded?: boolean | undefined;
}

/** Every event the entry takes. */
export type LambdaHttpEvent = HttpApiEvent | RestApiEvent;

/** The answer to a 2.0 event: repeated answer headers joined with commas, `Set-Cookie` in `cookies`. */
export interface HttpApiResult {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

/** The answer to a 1.0 event: every header as a list, so repeated ones stay apart. */
export interface RestApiResult {
  statusCode: number;
  multiValueHeaders: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

/** The result for an event of type `Event`. */
export type LambdaHttpResult<Event extends LambdaHttpEvent> = Event extends HttpApiEvent
  ? HttpApiResult
  : RestApiResult;

/** Whether an event is in payload format 2.0 (HTTP API or Function URL). */
export function isHttpApiEvent(event: LambdaHttpEvent): event is HttpApiEvent {
  return event.version === '2.0';
}
