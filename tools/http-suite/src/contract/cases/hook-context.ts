import { type HookContext, memoryStore, type PlantServiceError } from '@plantstore/core';
import { expect, vi } from 'vitest';
import { postPlant } from '../../client/send';
import { expectError } from '../expect';
import type { ContractSuite } from '../suite';

/** The claims of a compact JWS, as a verifier reads them (the test's own token: no check needed). */
const claimsOf = (token: string): unknown =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));

/**
 * What the hooks are told (docs/guides/hooks.md): `context.path` is the path the client requested as it
 * reached the host, mount point included and query left out, on every entry and at every mount;
 * and a token refused 403 for its scope was verified, so `context.principal` names it.
 *
 * @param suite - the target's suite
 */
export function describeHookContext(suite: ContractSuite): void {
  const { id, test, target, auth, setup, group } = suite;
  group('hook context', ['hooks', 'mounting'], () => {
    test(
      'hooks.rejected-context',
      ['hooks', 'mounting'],
      'gives onRejected the requested path and the principal of a token refused 403 for its scope',
      async () => {
        const seen: { code: string; context: HookContext }[] = [];
        const onRejected = (error: PlantServiceError, context: HookContext): void =>
          void seen.push({ code: error.code, context });
        const host = await target.start(
          { store: memoryStore(), auth: auth(), onRejected },
          setup(),
        );
        try {
          const token = await suite.issuer.sign({ scope: 'plants:read' });
          const reply = await postPlant(host.url, token, `{"id":${id()},"name":"a"}`, {
            path: '/plants?trace=1',
          });
          expectError(reply, 403);
          // A remote host reports its hooks over a connection of their own: wait for it.
          await vi.waitFor(() => expect(seen).toHaveLength(1));
          const mountPath = new URL(host.url).pathname.replace(/\/$/, '');
          expect(seen).toEqual([
            {
              code: 'scope_insufficient',
              context: {
                method: 'POST',
                path: `${mountPath}/plants`,
                principal: {
                  subject: 'test-user',
                  scopes: ['plants:read'],
                  claims: claimsOf(token),
                },
              },
            },
          ]);
        } finally {
          await host.close();
        }
      },
    );
  });
}
