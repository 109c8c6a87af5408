// Events as AWS documents them (every field, typed as the entry reads them), copied from the example payloads of these pages (the values are
// AWS's, placeholders included); the tests change only the fields they name (method, path, body).
//
// - HTTP API, payload format 2.0 and 1.0:
//   https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html
// - Lambda function URL request payload:
//   https://docs.aws.amazon.com/lambda/latest/dg/urls-invocation.html#urls-payloads
import type { HttpApiEvent, RestApiEvent } from '@plantstore/aws-lambda';

// The two pages' 2.0 examples are the same but for requestContext's identity, addresses and
// authorizer and the body: what they share is written once, value for value, and spread into each.
const V2_REQUEST = {
  version: '2.0',
  routeKey: '$default',
  rawPath: '/my/path',
  rawQueryString: 'parameter1=value1&parameter1=value2&parameter2=value',
  cookies: ['cookie1', 'cookie2'],
  headers: { header1: 'value1', header2: 'value1,value2' },
  queryStringParameters: { parameter1: 'value1,value2', parameter2: 'value' },
} as const;
const V2_CONTEXT_END = {
  requestId: 'id',
  routeKey: '$default',
  stage: '$default',
  time: '12/Mar/2020:19:03:58 +0000',
  timeEpoch: 1583348638390,
} as const;
const v2Http = (sourceIp: string) =>
  ({
    method: 'POST',
    path: '/my/path',
    protocol: 'HTTP/1.1',
    sourceIp,
    userAgent: 'agent',
  }) as const;

/** The 2.0 example of the HTTP API page. */
const HTTP_API_EVENT_AS_DOCUMENTED = {
  ...V2_REQUEST,
  requestContext: {
    accountId: '123456789012',
    apiId: 'api-id',
    authentication: {
      clientCert: {
        clientCertPem: 'CERT_CONTENT',
        subjectDN: 'www.example.com',
        issuerDN: 'Example issuer',
        serialNumber: 'a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1',
        validity: { notBefore: 'May 28 12:30:02 2019 GMT', notAfter: 'Aug  5 09:36:04 2021 GMT' },
      },
    },
    authorizer: {
      jwt: { claims: { claim1: 'value1', claim2: 'value2' }, scopes: ['scope1', 'scope2'] },
    },
    domainName: 'id.execute-api.us-east-1.amazonaws.com',
    domainPrefix: 'id',
    http: v2Http('192.0.2.1'),
    ...V2_CONTEXT_END,
  },
  body: 'Hello from Lambda',
  pathParameters: { parameter1: 'value1' },
  isBase64Encoded: false,
  stageVariables: { stageVariable1: 'value1', stageVariable2: 'value2' },
} as const;
export const HTTP_API_EVENT: HttpApiEvent = HTTP_API_EVENT_AS_DOCUMENTED;

/** The 1.0 example of the same page (the shape a REST API sends). */
const REST_API_EVENT_AS_DOCUMENTED = {
  version: '1.0',
  resource: '/my/path',
  path: '/my/path',
  httpMethod: 'GET',
  headers: { header1: 'value1', header2: 'value2' },
  multiValueHeaders: { header1: ['value1'], header2: ['value1', 'value2'] },
  queryStringParameters: { parameter1: 'value1', parameter2: 'value' },
  multiValueQueryStringParameters: { parameter1: ['value1', 'value2'], parameter2: ['value'] },
  requestContext: {
    accountId: '123456789012',
    apiId: 'id',
    authorizer: { claims: null, scopes: null },
    domainName: 'id.execute-api.us-east-1.amazonaws.com',
    domainPrefix: 'id',
    extendedRequestId: 'request-id',
    httpMethod: 'GET',
    identity: {
      accessKey: null,
      accountId: null,
      caller: null,
      cognitoAuthenticationProvider: null,
      cognitoAuthenticationType: null,
      cognitoIdentityId: null,
      cognitoIdentityPoolId: null,
      principalOrgId: null,
      sourceIp: '192.0.2.1',
      user: null,
      userAgent: 'user-agent',
      userArn: null,
      // The page's 1.0 example carries the 2.0 example's certificate, value for value.
      clientCert: HTTP_API_EVENT_AS_DOCUMENTED.requestContext.authentication.clientCert,
    },
    path: '/my/path',
    protocol: 'HTTP/1.1',
    requestId: 'id=',
    requestTime: '04/Mar/2020:19:15:17 +0000',
    requestTimeEpoch: 1583349317135,
    resourceId: null,
    resourcePath: '/my/path',
    stage: '$default',
  },
  pathParameters: null,
  stageVariables: null,
  body: 'Hello from Lambda!',
  isBase64Encoded: false,
} as const;
export const REST_API_EVENT: RestApiEvent = REST_API_EVENT_AS_DOCUMENTED;

/** The example of the function URL page. */
const FUNCTION_URL_EVENT_AS_DOCUMENTED = {
  ...V2_REQUEST,
  requestContext: {
    accountId: '123456789012',
    apiId: '<urlid>',
    authentication: null,
    authorizer: {
      iam: {
        accessKey: 'AKIA...',
        accountId: '111122223333',
        callerId: 'AIDA...',
        cognitoIdentity: null,
        principalOrgId: null,
        userArn: 'arn:aws:iam::111122223333:user/example-user',
        userId: 'AIDA...',
      },
    },
    domainName: '<url-id>.lambda-url.us-west-2.on.aws',
    domainPrefix: '<url-id>',
    http: v2Http('123.123.123.123'),
    ...V2_CONTEXT_END,
  },
  body: 'Hello from client!',
  pathParameters: null,
  isBase64Encoded: false,
  stageVariables: null,
} as const;
export const FUNCTION_URL_EVENT: HttpApiEvent = FUNCTION_URL_EVENT_AS_DOCUMENTED;
