import { expect } from 'vitest';
import { expectRouteHeaders } from '../expect';
import type { ContractSuite } from '../suite';

const INT64_MAX = '9223372036854775807';
const INT64_MIN = '-9223372036854775808';

/**
 * The 200 cases: what the route creates and answers, exact from the bytes to the store.
 *
 * @param suite - the target's suite
 */
export function describeCreated(suite: ContractSuite): void {
  const { id, test, post, group } = suite;
  group('200', ['created', 'store', 'mounting', 'body'], () => {
    test(
      'created.create',
      ['created', 'store', 'mounting'],
      'creates a plant and answers 200 with the plant without its id',
      async () => {
        const plantId = id();
        const reply = await post(`{"id":${plantId},"name":"Monstera","tag":"aroid"}`);
        expect(reply.status).toBe(200);
        expectRouteHeaders(reply);
        expect(reply.text).toBe('{"name":"Monstera","tag":"aroid"}');
        const {
          id: storedId,
          name,
          tag,
          tenant,
          createdBy,
        } = suite.store.get(BigInt(plantId)) ?? {};
        expect({ id: storedId, name, tag, tenant, createdBy }).toStrictEqual({
          id: BigInt(plantId),
          name: 'Monstera',
          tag: 'aroid',
          tenant: '',
          createdBy: 'test-user',
        });
      },
    );

    test(
      'created.replay-owner',
      ['created', 'store', 'mounting'],
      'replays for its creator with Idempotent-Replayed: true, and answers another caller the 409 of a conflict',
      async () => {
        const body = `{"id":${id()},"name":"Owned","tag":"t"}`;
        const created = await post(body);
        const replayed = await post(body);
        expect([created.status, created.headers['idempotent-replayed']]).toEqual([200, undefined]);
        expect([replayed.status, replayed.headers['idempotent-replayed']]).toEqual([200, 'true']);
        const other = await suite.issuer.sign({ scope: 'plants:write', sub: 'another-user' });
        const guess = await post(body, { headers: { authorization: `Bearer ${other}` } });
        expect(guess.status).toBe(409);
        expect(guess.headers['idempotent-replayed']).toBeUndefined();
        expect(JSON.parse(guess.text)).toStrictEqual({
          error: 409,
          message:
            'A plant with this id already exists with a different name or tag, or for another caller; nothing was changed.',
        });
      },
    );

    test(
      'created.no-tag',
      ['created', 'store'],
      'answers without a tag when the plant has none',
      async () => {
        const reply = await post(`{"id":${id()},"name":"Fern"}`);
        expect(reply.status).toBe(200);
        expect(reply.text).toBe('{"name":"Fern"}');
      },
    );

    test(
      'created.other-properties',
      ['created', 'store'],
      'ignores and does not store other properties',
      async () => {
        const plantId = id();
        const reply = await post(
          `{"id":${plantId},"name":"Ivy","colour":"green","nested":{"a":[1,2]}}`,
        );
        expect(reply.status).toBe(200);
        // The plant, and beside it what the core keeps for audit: nothing of the body's extras.
        expect(Object.keys(suite.store.get(BigInt(plantId)) ?? {})).toEqual([
          'id',
          'name',
          'tenant',
          'createdBy',
          'clientId',
          'createdAt',
          'tokenId',
        ]);
      },
    );

    test(
      'created.int64',
      ['created', 'store'],
      'keeps 9007199254740993 and both int64 ends exact from the bytes to the store',
      async () => {
        for (const text of ['9007199254740993', INT64_MAX, INT64_MIN]) {
          const reply = await post(`{"id":${text},"name":"Exact"}`);
          expect(reply.status).toBe(200);
          expect(suite.store.get(BigInt(text))?.name).toBe('Exact');
        }
      },
    );

    test(
      'created.integers-by-value',
      ['created', 'store'],
      'accepts 1.0, 1e2 and -0 as integers',
      async () => {
        for (const [text, value] of [
          ['77001.0', 77001n],
          ['7.7002e4', 77002n],
          ['-0', 0n],
        ] as const) {
          const reply = await post(`{"id":${text},"name":"By value"}`);
          expect(reply.status).toBe(200);
          expect(suite.store.get(value)?.name).toBe('By value');
        }
      },
    );

    test(
      'created.charset-bom',
      ['created', 'body'],
      'accepts a charset=utf-8 parameter and one leading BOM',
      async () => {
        const reply = await post(`\ufeff{"id":${id()},"name":"Bom"}`, {
          headers: { 'content-type': 'application/json; charset=UTF-8' },
        });
        expect(reply.status).toBe(200);
      },
    );

    test(
      'created.replay',
      ['created', 'store'],
      'answers a replay of the same plant 200 and stores it once',
      async () => {
        const body = `{"id":${id()},"name":"Replay","tag":"t"}`;
        const before = suite.store.size;
        expect((await post(body)).status).toBe(200);
        const again = await post(body);
        expect(again.status).toBe(200);
        expect(again.text).toBe('{"name":"Replay","tag":"t"}');
        expect(suite.store.size).toBe(before + 1);
      },
    );
  });
}
