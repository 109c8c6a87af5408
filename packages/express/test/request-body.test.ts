import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { requestBody } from '../src/request-body';

/** The few members `requestBody` reads, as body-parser 1 and 2 leave them (see the real-app tests). */
const fake = (fields: {
  _body?: boolean;
  readableEnded: boolean;
  body?: unknown;
  rawBody?: unknown;
  headers?: Record<string, string>;
}): Request => ({ headers: {}, ...fields }) as unknown as Request;

describe('requestBody', () => {
  it('hands over the unread stream when no parser ran', () => {
    const req = fake({ readableEnded: false });
    expect(requestBody(req)).toEqual({ body: req });
  });

  it('hands over the unread stream when body-parser 1 skipped the request and left {}', () => {
    const req = fake({ readableEnded: false, body: {} });
    expect(requestBody(req).body).toBe(req);
  });

  it('hands over the parsed value body-parser 1 flagged with _body', () => {
    expect(requestBody(fake({ _body: true, readableEnded: true, body: { id: 1 } }))).toEqual({
      parsedBody: { id: 1 },
    });
  });

  it('hands over the parsed value when body-parser 2 ended the stream without a flag', () => {
    expect(requestBody(fake({ readableEnded: true, body: { id: 1 } }))).toEqual({
      parsedBody: { id: 1 },
    });
  });

  it('hands over whatever a parser left, text, bytes or a parsed value, for the core to tell apart', () => {
    const bytes = Buffer.from('{"id":1}');
    expect(requestBody(fake({ readableEnded: true, body: '{"id":1}' }))).toEqual({
      parsedBody: '{"id":1}',
    });
    expect(requestBody(fake({ readableEnded: true, body: bytes })).parsedBody).toBe(bytes);
    expect(requestBody(fake({ readableEnded: true, body: {} }))).toEqual({ parsedBody: {} });
  });

  it('hands over the raw body a parser kept in req.rawBody, bytes or text, before the parsed value', () => {
    const bytes = Buffer.from('{"id":9007199254740993}');
    const parsed = { id: 9007199254740992 };
    expect(
      requestBody(fake({ _body: true, readableEnded: true, rawBody: bytes, body: parsed })).body,
    ).toBe(bytes);
    expect(
      requestBody(fake({ readableEnded: true, rawBody: '{"id":1}', body: { id: 1 } })),
    ).toEqual({
      body: '{"id":1}',
    });
  });

  it('reads the unread stream, not a req.rawBody, when no parser consumed it', () => {
    const req = fake({ readableEnded: false, rawBody: Buffer.from('{}') });
    expect(requestBody(req).body).toBe(req);
  });

  it('hands over the ended stream when a reader kept nothing, so the core reports it consumed', () => {
    const req = fake({ readableEnded: true });
    expect(requestBody(req).body).toBe(req);
  });
});
