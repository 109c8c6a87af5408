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
        expect(suite.store.get(BigInt(plantId))).toEqual({
          id: BigInt(plantId),
          name: 'Monstera',
          tag: 'aroid',
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
        expect(Object.keys(suite.store.get(BigInt(plantId)) ?? {})).toEqual(['id', 'name']);
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
