import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  HttpApiEvent,
  HttpApiResult,
  LambdaHandler,
  RestApiEvent,
  RestApiResult,
} from '@plantstore/aws-lambda';

/** The payload format the stand-in sends: `2.0` (HTTP API, Function URL) or `1.0` (REST API). */
export type PayloadFormat = '2.0' | '1.0';

/** Lambda's limit on a synchronous invocation's request, base64 included. */
const INVOCATION_LIMIT = 6 * 1024 * 1024;
/** The stage a REST API's URL starts with; its events' `path` is without it. */
const REST_STAGE = 'prod';

/**
 * A local stand-in for API Gateway in front of a Lambda function, as `sam local start-api` is: each
 * HTTP request is read whole (as API Gateway does before it invokes anything), turned into the
 * event of the chosen payload format, and the handler is invoked in this process; its result
 * becomes the answer. There is no Lambda here: this is the translation both sides of the entry see.
 *
 * Bodies travel as AWS sends them: in 2.0, text when the bytes are UTF-8 and base64 when they are
 * not; in 1.0, always base64 (a REST API with `*∕*` among its binary media types). Header fields
 * keep their repetitions: joined with commas in 2.0, listed in `multiValueHeaders` in 1.0.
 *
 * @param handler - the function's handler
 * @param format - the payload format to send
 * @param port - the port to listen on, on 127.0.0.1 (0: any)
 * @returns the listening server
 */
export async function serveLambdaLocally(
  handler: LambdaHandler,
  format: PayloadFormat,
  port: number,
): Promise<Server> {
  const server = createServer((request, response) => {
    void answer(handler, format, request, response);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** The address a stand-in listens on. */
export function originOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function answer(
  handler: LambdaHandler,
  format: PayloadFormat,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const body = await readWhole(request);
  if (body === null) return;
  if (body === undefined) {
    // What API Gateway answers for a request Lambda cannot take; the function never sees it.
    response.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
    response.end('{"message":"Request Entity Too Large"}');
    return;
  }
  try {
    if (format === '2.0') writeHttpApiResult(response, await handler(httpApiEvent(request, body)));
    else writeRestApiResult(response, await handler(restApiEvent(request, body)));
  } catch (error) {
    // A function that throws: API Gateway answers 500 (HTTP API) or 502 (REST API) on its own.
    console.error(error);
    response.writeHead(format === '2.0' ? 500 : 502, { 'content-type': 'application/json' });
    response.end('{"message":"Internal Server Error"}');
  }
}

/** The whole body; `undefined` past Lambda's limit; `null` when the client went away first. */
async function readWhole(request: IncomingMessage): Promise<Buffer | undefined | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > INVOCATION_LIMIT) return undefined;
      chunks.push(chunk);
    }
  } catch {
    return null; // nothing to invoke: API Gateway drops such a request too
  }
  return Buffer.concat(chunks);
}

/** Each field with all its values, in the order they came (node:http drops a repeated Authorization). */
function fieldsOf(request: IncomingMessage): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index]!.toLowerCase();
    const values = fields.get(name) ?? [];
    values.push(request.rawHeaders[index + 1]!);
    fields.set(name, values);
  }
  return fields;
}

function httpApiEvent(request: IncomingMessage, body: Buffer): HttpApiEvent {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const fields = fieldsOf(request);
  const cookies = fields.get('cookie')?.flatMap((field) => field.split(/;\s*/u));
  fields.delete('cookie');
  const text = utf8(body);
  const method = request.method ?? 'GET';
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies === undefined ? {} : { cookies }),
    headers: Object.fromEntries([...fields].map(([name, values]) => [name, values.join(',')])),
    requestContext: {
      domainName: 'localhost',
      stage: '$default',
      requestId: randomUUID(),
      timeEpoch: Date.now(),
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' },
    },
    ...(body.length === 0 ? {} : { body: text ?? body.toString('base64') }),
    isBase64Encoded: body.length > 0 && text === undefined,
  } as HttpApiEvent;
}

function restApiEvent(request: IncomingMessage, body: Buffer): RestApiEvent {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const fields = fieldsOf(request);
  const query = new Map<string, string[]>();
  for (const [name, value] of url.searchParams)
    query.set(name, [...(query.get(name) ?? []), value]);
  const method = request.method ?? 'GET';
  return {
    version: '1.0',
    resource: '/{proxy+}',
    path: url.pathname,
    httpMethod: method,
    headers: Object.fromEntries([...fields].map(([name, values]) => [name, values.at(-1)])),
    multiValueHeaders: Object.fromEntries(fields),
    queryStringParameters:
      query.size === 0
        ? null
        : Object.fromEntries([...query].map(([name, values]) => [name, values.at(-1)])),
    multiValueQueryStringParameters: query.size === 0 ? null : Object.fromEntries(query),
    requestContext: {
      domainName: 'localhost',
      stage: REST_STAGE,
      path: `/${REST_STAGE}${url.pathname}`,
      httpMethod: method,
      requestId: randomUUID(),
      identity: { sourceIp: '127.0.0.1' },
    },
    body: body.length === 0 ? null : body.toString('base64'),
    isBase64Encoded: body.length > 0,
  } as RestApiEvent;
}

function utf8(body: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    return undefined;
  }
}

function writeHttpApiResult(response: ServerResponse, result: HttpApiResult): void {
  for (const [name, value] of Object.entries(result.headers)) response.setHeader(name, value);
  if (result.cookies !== undefined) response.setHeader('set-cookie', result.cookies);
  response.writeHead(result.statusCode);
  response.end(Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'));
}

function writeRestApiResult(response: ServerResponse, result: RestApiResult): void {
  for (const [name, values] of Object.entries(result.multiValueHeaders)) {
    response.setHeader(name, values.length === 1 ? values[0]! : values);
  }
  response.writeHead(result.statusCode);
  response.end(Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'));
}
