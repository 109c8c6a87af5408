import { expect } from 'vitest';
import { send } from '../../client/send';
import { expectError } from '../expect';
import type { ContractSuite } from '../suite';

/**
 * The 408, 409, 413 and 415 cases: time-out, conflict, size and media type.
 *
 * @param suite - the target's suite
 */
export function describeLimits(suite: ContractSuite): void {
  const { id, test, post, rejected, group } = suite;
  group('408, 409, 413, 415', ['body-read', 'created', 'store', 'body'], () => {
    test(
      'limits.read-timeout',
      ['body-read'],
      'answers 408 when the body does not arrive within the read time-out',
      async () => {
        const reply = await send(suite.host.url, {
          headers: {
            authorization: `Bearer ${suite.token}`,
            'content-type': 'application/json',
            'content-length': '40',
          },
          stallAfter: '{"id":1,',
        });
        expectError(reply, 408);
      },
    );

    test(
      'limits.conflict',
      ['created', 'store'],
      'answers 409 for an existing id with other content, and changes nothing',
      async () => {
        const plantId = id();
        await post(`{"id":${plantId},"name":"First","tag":"a"}`);
        const reply = await post(`{"id":${plantId},"name":"Second","tag":"a"}`);
        expectError(reply, 409);
        expect(reply.text).not.toContain('First');
        expect(suite.store.get(BigInt(plantId))?.name).toBe('First');
        expectError(await post(`{"id":${plantId},"name":"First"}`), 409);
      },
    );

    test(
      'limits.too-large',
      ['body-read'],
      'answers 413 for a body over 16 KiB, declared or streamed',
      async () => {
        const big = `{"id":${id()},"name":"${'x'.repeat(16_384)}"}`;
        expectError(await post(big), 413);
        expectError(await post(big, { headers: { 'transfer-encoding': 'chunked' } }), 413);
        expect(rejected.at(-1)?.code).toBe('body_too_large');
      },
    );

    test(
      'limits.media-type',
      ['body'],
      'answers 415 for another media type, another charset, none, or a compressed body',
      async () => {
        const body = `{"id":${id()},"name":"a"}`;
        for (const contentType of [
          'text/plain',
          'application/json; charset=latin1',
          'application/jsonx',
        ]) {
          const reply = await post(body, { headers: { 'content-type': contentType } });
          expectError(reply, 415);
          // RFC 9110 §15.5.16: say what would have been accepted.
          expect(reply.headers['accept']).toBe('application/json');
        }
        const none = await send(suite.host.url, {
          body,
          headers: { authorization: `Bearer ${suite.token}` },
        });
        expectError(none, 415);
        const gzip = await post(body, { headers: { 'content-encoding': 'gzip' } });
        expectError(gzip, 415);
        expect(gzip.headers['accept-encoding']).toBe('identity');
        expect(rejected.at(-1)?.code).toBe('content_encoding_unsupported');
      },
    );
  });
}
