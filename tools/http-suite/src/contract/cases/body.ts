import { expect } from 'vitest';
import { expectError } from '../expect';
import type { ContractSuite } from '../suite';

/**
 * The 400 cases: bodies and headers the route refuses before the store.
 *
 * @param suite - the target's suite
 */
export function describeBodyRefusals(suite: ContractSuite): void {
  const { id, test, post, rejected, group } = suite;
  /** Posts `body` and expects a 400 Error (saying `message`, when given) refused as `code`. */
  const refuses = async (body: string, code: string, message?: RegExp): Promise<void> => {
    expectError(await post(body), 400, message);
    expect(rejected.at(-1)?.code).toBe(code);
  };
  group('400', ['body', 'store', 'auth'], () => {
    test('body.not-json', ['body'], 'refuses a body that is not JSON', () =>
      refuses('{"id":1,', 'body_not_json', /not valid JSON/),
    );

    test('body.not-object', ['body'], 'refuses JSON that is not an object', () =>
      refuses('[1,2]', 'body_not_object'),
    );

    test(
      'body.schema',
      ['body'],
      'refuses a body that fails the schema, naming every offending field and type',
      async () => {
        const reply = await post('{"id":"12","name":5,"tag":null}');
        expectError(reply, 400);
        const { message } = reply.json as { message: string };
        expect(message).toMatch(/id: .*received a string/);
        expect(message).toMatch(/name: .*received an integer/);
        expect(message).toMatch(/tag: .*received null/);
        expect(message).not.toContain('12');
      },
    );

    test('body.missing-name', ['body'], 'refuses a missing name', () =>
      refuses(`{"id":${id()}}`, 'field_missing', /name/),
    );

    test(
      'body.id-range',
      ['body', 'store'],
      'refuses ids out of the int64 range and fractions, and stores nothing',
      async () => {
        const before = suite.store.size;
        for (const text of [
          '9223372036854775808',
          '-9223372036854775809',
          '1e19',
          '1.5',
          'true',
          'null',
        ]) {
          expectError(await post(`{"id":${text},"name":"Out"}`), 400);
        }
        expect(suite.store.size).toBe(before);
      },
    );

    test(
      'body.hostile-keys',
      ['body'],
      'refuses duplicate keys, __proto__ and constructor keys, and nesting deeper than 64',
      async () => {
        await refuses(`{"id":${id()},"name":"a","name":"b"}`, 'body_duplicate_key');
        await refuses(`{"id":${id()},"name":"a","__proto__":{"x":1}}`, 'body_forbidden_key');
        expectError(await post(`{"id":${id()},"name":"a","x":{"constructor":1}}`), 400);
        const deep = `${'['.repeat(64)}${']'.repeat(64)}`;
        await refuses(`{"id":${id()},"name":"a","x":${deep}}`, 'body_too_deep');
      },
    );

    test(
      'body.bad-characters',
      ['body'],
      'refuses lone surrogates, U+0000 and invalid UTF-8',
      async () => {
        expectError(await post(`{"id":${id()},"name":"\\ud800"}`), 400);
        await refuses(`{"id":${id()},"name":"a\\u0000b"}`, 'string_contains_nul');
        const bytes = Buffer.concat([
          Buffer.from(`{"id":${id()},"name":"`),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('"}'),
        ]);
        expectError(await post(bytes), 400);
        expect(rejected.at(-1)?.code).toBe('body_invalid_utf8');
      },
    );

    test('body.empty', ['body'], 'refuses an empty body', () => refuses('', 'body_empty'));

    test(
      'auth.repeated-field',
      ['auth'],
      'answers repeated Authorization headers 400 invalid_request, also when the first is not Bearer',
      async () => {
        // A fetch host joins the lines into one value (`Basic …, Bearer …`); a Node one keeps two.
        for (const first of [`Bearer ${suite.token}`, 'Basic dXNlcjpwYXNz']) {
          const reply = await post(`{"id":${id()},"name":"a"}`, {
            // Capitalised: Node's typings allow an array (sent as two header lines) only by index.
            headers: { Authorization: [first, `Bearer ${suite.token}`] },
          });
          expectError(reply, 400);
          expect(reply.headers['www-authenticate']).toMatch(/error="invalid_request"/);
        }
      },
    );
  });
}
