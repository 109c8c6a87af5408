import { expect } from 'vitest';
import { send } from '../../client/send';
import { expectError } from '../expect';
import { type ContractSuite, SCOPE } from '../suite';

const CHALLENGE = 'Bearer realm="plantstore"';

/**
 * The 401 and 403 cases: missing, malformed, failing and insufficient credentials.
 *
 * @param suite - the target's suite
 */
export function describeAuthRefusals(suite: ContractSuite): void {
  const { id, post, rejected, test, group } = suite;
  group('401 and 403', ['auth', 'body-read'], () => {
    // No bearer credentials at all: a bare challenge. Bearer credentials that are not one
    // b64token: invalid_token. Either way a 401, so clients start a sign-in.
    const MALFORMED =
      /^Bearer realm="plantstore", error="invalid_token", error_description="[^"]+"$/;
    const MALFORMED_FIELDS = [
      ['an empty field', '', 'token_missing'],
      ['another scheme', 'Basic dXNlcjpwYXNz', 'token_missing'],
      ['Bearer glued to the token', 'Bearerabc.def.ghi', 'token_missing'],
      ['Bearer with no token', 'Bearer', 'authorization_malformed'],
      ['two tokens', 'Bearer abc def', 'authorization_malformed'],
      ['a quoted token', 'Bearer "abc"', 'authorization_malformed'],
      ['a comma list', 'Bearer abc, Basic x', 'authorization_malformed'],
    ] as const;
    for (const [what, value, code] of MALFORMED_FIELDS) {
      const slug = what.replaceAll(' ', '-');
      test(
        `auth.field.${slug}`,
        ['auth'],
        `answers ${what} 401 (${JSON.stringify(value)} → ${code})`,
        async () => {
          const reply = await post(`{"id":${id()},"name":"a"}`, {
            headers: { authorization: value },
          });
          expectError(reply, 401);
          const challenge = reply.headers['www-authenticate'];
          if (code === 'token_missing') expect(challenge).toBe(CHALLENGE);
          else expect(challenge).toMatch(MALFORMED);
          expect(rejected.at(-1)?.code).toBe(code);
        },
      );
    }

    test(
      'auth.no-token',
      ['auth'],
      'answers a request without a token 401 with a bare Bearer challenge',
      async () => {
        const reply = await send(suite.host.url, {
          body: '{}',
          headers: { 'content-type': 'application/json' },
        });
        expectError(reply, 401);
        expect(reply.headers['www-authenticate']).toBe(CHALLENGE);
        expect(rejected.at(-1)?.code).toBe('token_missing');
      },
    );

    test(
      'auth.before-body',
      ['auth', 'body-read'],
      'answers an unauthenticated request without reading its body',
      async () => {
        const reply = await send(suite.host.url, {
          headers: { 'content-type': 'application/json', 'content-length': '1000000' },
          stallAfter: '{"id":1,',
        });
        expectError(reply, 401);
      },
    );

    test(
      'auth.invalid-token',
      ['auth'],
      'answers a token that fails verification 401 invalid_token without echoing it',
      async () => {
        const expired = await suite.issuer.sign({ scope: SCOPE }, { expiresIn: -60 });
        const reply = await post(`{"id":${id()},"name":"a"}`, {
          headers: { authorization: `Bearer ${expired}` },
        });
        expectError(reply, 401);
        expect(reply.headers['www-authenticate']).toMatch(
          /^Bearer realm="plantstore", error="invalid_token", error_description="[^"]+"$/,
        );
        expect(reply.text).not.toContain(expired.split('.')[1]);
        expect(rejected.at(-1)?.code).toBe('token_expired');
      },
    );

    test(
      'auth.audience',
      ['auth'],
      'answers a token with another audience 401 audience_mismatch',
      async () => {
        const other = await suite.issuer.sign({ scope: SCOPE, aud: 'https://elsewhere.example' });
        expectError(
          await post(`{"id":${id()},"name":"a"}`, {
            headers: { authorization: `Bearer ${other}` },
          }),
          401,
        );
        expect(rejected.at(-1)?.code).toBe('audience_mismatch');
      },
    );

    test(
      'auth.scope',
      ['auth'],
      'answers a valid token without the required scope 403 insufficient_scope',
      async () => {
        const reader = await suite.issuer.sign({ scope: 'plants:read' });
        const reply = await post(`{"id":${id()},"name":"a"}`, {
          headers: { authorization: `Bearer ${reader}` },
        });
        expectError(reply, 403);
        expect(reply.headers['www-authenticate']).toMatch(/error="insufficient_scope"/);
        expect(reply.headers['www-authenticate']).toMatch(/scope="plants:write"/);
      },
    );
  });
}
