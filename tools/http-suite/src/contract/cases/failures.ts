import {
  jwtBearer,
  memoryStore,
  type PlantServiceError,
  type PlantServiceOptions,
  type PlantStore,
  ServiceUnavailableError,
} from '@plantstore/core';
import { createTokenIssuer } from '@plantstore/core/testing';
import { expect } from 'vitest';
import { postPlant } from '../../client/send';
import { expectError } from '../expect';
import type { ContractSuite } from '../suite';

/**
 * The 500 and 503 cases: the store and the identity provider failing.
 *
 * @param suite - the target's suite
 */
export function describeFailures(suite: ContractSuite): void {
  const { id, test, target, auth, setup, group } = suite;
  group('500 and 503', ['failures', 'auth'], () => {
    const startWith = async (storeOf: PlantStore, extra: Partial<PlantServiceOptions> = {}) =>
      target.start({ store: storeOf, auth: auth(), storeTimeout: 100, ...extra }, setup());

    test(
      'failures.store-throws',
      ['failures'],
      'answers 500 with a generic message when the store throws, and reports it to onError',
      async () => {
        const seen: PlantServiceError[] = [];
        const failing = await startWith(
          { insert: () => Promise.reject(new Error('SELECT secret FROM internals')) },
          // Not about the time-out: a bridged store's round trip on a busy machine can pass 100 ms.
          { onError: (error) => void seen.push(error), storeTimeout: 10_000 },
        );
        try {
          const reply = await postPlant(failing.url, suite.token, `{"id":${id()},"name":"a"}`);
          expectError(reply, 500);
          expect(reply.text).not.toContain('SELECT');
          expect(seen.map((error) => error.code)).toEqual(['store_failed']);
        } finally {
          await failing.close();
        }
      },
    );

    test(
      'failures.store-unavailable',
      ['failures'],
      'answers 503 with Retry-After when the store times out or is unavailable',
      async () => {
        const hanging = await startWith({ insert: () => new Promise(() => undefined) });
        const down = await startWith({
          insert: () =>
            Promise.reject(new ServiceUnavailableError('store_unavailable', 'connection refused')),
        });
        try {
          for (const running of [hanging, down]) {
            const reply = await postPlant(running.url, suite.token, `{"id":${id()},"name":"a"}`);
            expectError(reply, 503);
            expect(reply.headers['retry-after']).toBe('5');
            expect(reply.text).not.toContain('connection refused');
          }
        } finally {
          await Promise.all([hanging.close(), down.close()]);
        }
      },
    );

    test(
      'failures.key-set-down',
      ['failures', 'auth'],
      'answers 503, never 401, when the key set cannot be fetched',
      async () => {
        const idp = await createTokenIssuer();
        const idpAuth = { jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience };
        const unreachable = await target.start(
          { store: memoryStore(), auth: jwtBearer(idpAuth) },
          { auth: idpAuth },
        );
        try {
          const signed = await idp.sign();
          idp.outage('down');
          const reply = await postPlant(unreachable.url, signed, `{"id":${id()},"name":"a"}`);
          expectError(reply, 503);
          expect(reply.headers['retry-after']).toMatch(/^\d+$/);
        } finally {
          await unreachable.close();
          await idp.close();
        }
      },
    );
  });
}
