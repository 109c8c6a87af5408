import {
  httpApiResult,
  lambdaHandler,
  requestOfEvent,
  restApiResult,
} from '@plantstore/aws-lambda';
import { describe, expect, it } from 'vitest';
import { FUNCTION_URL_EVENT, HTTP_API_EVENT, REST_API_EVENT } from './events/aws-documented-events';

describe('requestOfEvent', () => {
  it('builds the documented 2.0 event: raw query, cookies in one field, joined headers, text body', async () => {
    const request = requestOfEvent(HTTP_API_EVENT);
    expect(request.method).toBe('POST');
    expect(request.url).toBe(
      'https://id.execute-api.us-east-1.amazonaws.com/my/path?parameter1=value1&parameter1=value2&parameter2=value',
    );
    expect(request.headers.get('cookie')).toBe('cookie1; cookie2');
    expect(request.headers.get('header2')).toBe('value1,value2');
    expect(request.headers.get('content-length')).toBe('17');
    expect(await request.text()).toBe('Hello from Lambda');
  });

  it('builds the documented 1.0 event: repeated headers and query parameters kept, no body on GET', () => {
    const request = requestOfEvent(REST_API_EVENT);
    expect(request.method).toBe('GET');
    expect(request.url).toBe(
      'https://id.execute-api.us-east-1.amazonaws.com/my/path?parameter1=value1&parameter1=value2&parameter2=value',
    );
    expect(request.headers.get('header2')).toBe('value1, value2');
    expect(request.body).toBeNull();
  });

  it('builds the documented Function URL event, its placeholder domain giving way to localhost', async () => {
    const request = requestOfEvent(FUNCTION_URL_EVENT);
    expect(request.url).toBe(
      'https://localhost/my/path?parameter1=value1&parameter1=value2&parameter2=value',
    );
    const named = requestOfEvent({
      ...FUNCTION_URL_EVENT,
      requestContext: {
        ...FUNCTION_URL_EVENT.requestContext,
        domainName: 'abc.lambda-url.us-west-2.on.aws',
      },
    });
    expect(new URL(named.url).host).toBe('abc.lambda-url.us-west-2.on.aws');
    expect(await request.text()).toBe('Hello from client!');
  });

  it('keeps a decoded ? or # of a 1.0 path in the path', () => {
    const request = requestOfEvent({ ...REST_API_EVENT, path: '/api/plants#x?y' });
    expect(new URL(request.url).pathname).toBe('/api/plants%23x%3Fy');
  });

  it('refuses an event of another trigger with a TypeError', () => {
    const s3Event = { Records: [{ eventSource: 'aws:s3' }] } as unknown as typeof REST_API_EVENT;
    expect(() => requestOfEvent(s3Event)).toThrow(TypeError);
  });

  it("refuses an Application Load Balancer's event, whose result would lose the route's headers", () => {
    // The ALB page's example: 1.0-like, with `requestContext.elb` and no `version`.
    const albEvent = {
      requestContext: {
        elb: {
          targetGroupArn:
            'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/lambda-279XGJDqGZ5rsrHC2Fjr/49e9d65c45c6791a',
        },
      },
      httpMethod: 'POST',
      path: '/api/plants',
      queryStringParameters: {},
      headers: { 'content-type': 'application/json' },
      body: '{"id":1,"name":"Fern"}',
      isBase64Encoded: false,
    } as unknown as typeof REST_API_EVENT;
    expect(() => requestOfEvent(albEvent)).toThrow(/Application Load Balancer/u);
  });
});

describe('the results', () => {
  const answer = (): Response => {
    const headers = new Headers({ 'content-type': 'image/png' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    return new Response(new Uint8Array([0, 255, 16]), { status: 201, headers });
  };

  it('puts each Set-Cookie in cookies (2.0) and a binary body in base64', async () => {
    expect(await httpApiResult(answer())).toEqual({
      statusCode: 201,
      headers: { 'content-type': 'image/png' },
      cookies: ['a=1', 'b=2'],
      body: 'AP8Q',
      isBase64Encoded: true,
    });
  });

  it('keeps each Set-Cookie apart in multiValueHeaders (1.0)', async () => {
    expect(await restApiResult(answer())).toEqual({
      statusCode: 201,
      multiValueHeaders: { 'content-type': ['image/png'], 'set-cookie': ['a=1', 'b=2'] },
      body: 'AP8Q',
      isBase64Encoded: true,
    });
  });

  it('refuses something other than a fetch function at once', () => {
    expect(() => lambdaHandler('plants' as unknown as () => Promise<Response>)).toThrow(
      new TypeError('lambdaHandler needs a fetch function, got string.'),
    );
  });
});
