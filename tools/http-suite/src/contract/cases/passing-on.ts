import { expect } from 'vitest';
import { type Reply, send } from '../../client/send';
import { expectError } from '../expect';
import type { ContractSuite } from '../suite';

/**
 * Requests that are not the route's: the host answers them, or the entry 404 or 405.
 *
 * @param suite - the target's suite
 */
export function describePassingOn(suite: ContractSuite): void {
  const { id, test, post, target, group } = suite;
  group('other requests', ['mounting'], () => {
    const expectPassedOn = (reply: Reply, method: string, path: string): void => {
      if (target.passesOn) {
        expect(reply.status).toBe(200);
        expect(reply.text).toBe(`host:${method} ${path}`);
      } else {
        expectError(reply, method === 'POST' ? 404 : 405);
      }
    };

    test(
      'mounting.other-methods',
      ['mounting'],
      'leaves other methods on the route path to the host',
      async () => {
        const reply = await send(suite.host.url, {
          method: 'GET',
          headers: { authorization: `Bearer ${suite.token}` },
        });
        expectPassedOn(
          reply,
          'GET',
          `${new URL(suite.host.url).pathname.replace(/\/$/, '')}/plants`,
        );
      },
    );

    test('mounting.other-paths', ['mounting'], 'leaves other paths to the host', async () => {
      const reply = await post(`{"id":${id()},"name":"a"}`, { path: '/plants/extra' });
      expectPassedOn(
        reply,
        'POST',
        `${new URL(suite.host.url).pathname.replace(/\/$/, '')}/plants/extra`,
      );
    });
  });
}
