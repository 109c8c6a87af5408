import { memoryStore } from '@plantstore/core';
import { contractJwtBearer } from '../../contract-auth';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { expect } from 'vitest';
import { postPlant } from '../../client/send';
import type { ContractAuth, ContractIssuer } from '../../contract-setup';
import { expectError } from '../expect';
import { type ContractSuite, SCOPE } from '../suite';

/**
 * Several issuers on one route: each one's tokens, an unknown one, one whose key set is down.
 *
 * @param suite - the target's suite
 */
export function describeSeveralIssuers(suite: ContractSuite): void {
  const { id, test, target, group } = suite;
  group('several issuers', ['auth', 'failures'], () => {
    test(
      'auth.several-issuers',
      ['auth', 'failures'],
      "accepts each issuer's tokens, refuses an unknown issuer 401, and answers 503 only for the issuer whose key set is down",
      async () => {
        const [tenant, down] = await Promise.all([
          createTokenIssuer({ algorithm: 'ES256', audience: 'https://tenant.example' }),
          createTokenIssuer(),
        ]);
        const entry = (idp: TokenIssuer): ContractIssuer => ({
          issuer: idp.issuer,
          jwksUri: idp.jwksUri,
          audience: idp.audience,
        });
        const severalAuth: ContractAuth = {
          issuers: [entry(suite.issuer), entry(tenant), entry(down)],
          requiredScopes: [SCOPE],
        };
        down.outage('down');
        const several = await target.start(
          { store: memoryStore(), auth: contractJwtBearer(severalAuth) },
          { auth: severalAuth },
        );
        try {
          const body = () => `{"id":${id()},"name":"a"}`;
          expect((await postPlant(several.url, suite.token, body())).status).toBe(200);
          const tenantToken = await tenant.sign({ scope: SCOPE });
          expect((await postPlant(several.url, tenantToken, body())).status).toBe(200);
          // A token naming the tenant, signed by the other issuer's key: only the tenant's keys apply.
          // Issued before the tenant's keys were fetched, so no refetch for its unknown kid is due.
          const crossed = await suite.issuer.sign(
            { scope: SCOPE, iss: tenant.issuer, aud: tenant.audience },
            { issuedAt: -60 },
          );
          const crossedReply = await postPlant(several.url, crossed, body());
          expectError(crossedReply, 401);
          expect(crossedReply.headers['www-authenticate']).toBe(
            'Bearer realm="plantstore", error="invalid_token", error_description="No key of the key set matches the token"',
          );
          const unknown = await suite.issuer.sign({
            scope: SCOPE,
            iss: 'https://unknown.example/',
          });
          const before = [suite.issuer.requests, tenant.requests, down.requests];
          const unknownReply = await postPlant(several.url, unknown, body());
          expectError(unknownReply, 401);
          expect(unknownReply.headers['www-authenticate']).toBe(
            'Bearer realm="plantstore", error="invalid_token", error_description="The token names no accepted issuer"',
          );
          expect([suite.issuer.requests, tenant.requests, down.requests]).toEqual(before);
          const outage = await postPlant(several.url, await down.sign({ scope: SCOPE }), body());
          expectError(outage, 503);
          // Its first fetch failed: the next may start 1 s later, and the client is told so.
          expect(outage.headers['retry-after']).toBe('1');
          expect(outage.headers['www-authenticate']).toBeUndefined();
          expect((await postPlant(several.url, tenantToken, body())).status).toBe(200);
        } finally {
          await several.close();
          await Promise.all([tenant.close(), down.close()]);
        }
      },
    );
  });
}
