import { type Expectation, refused } from './case';
import { bearer, type TokenAttack, tokenAttack as attack } from './token-attack';
import type { TokenKit } from './token-kit';

const malformed = refused(401, 'token_malformed');
const badHeader = refused(401, 'authorization_malformed');
const missing = refused(401, 'token_missing');

const tokenOf = (build: (kit: TokenKit) => string) => (kit: TokenKit) => bearer(build(kit));

/** A genuine token of exactly `length` characters, padded with a claim (and a header field when the encoding needs it). */
async function genuineOfLength(kit: TokenKit, length: number): Promise<string> {
  for (let headerPad = 0; headerPad < 4; headerPad += 1) {
    let pad = Math.floor(((length - 600) * 3) / 4);
    for (let round = 0; round < 10 && pad >= 0; round += 1) {
      const token = await kit.identity.issuer.sign(kit.claims({ pad: 'x'.repeat(pad) }), {
        header: { pad: 'y'.repeat(headerPad) },
      });
      const short = length - token.length;
      if (short === 0) return token;
      pad += Math.trunc((short * 3) / 4) || Math.sign(short);
    }
  }
  throw new Error(`No genuine token of ${length} characters`);
}

/**
 * Tokens up to 16 KiB reach the checks (an Entra ID token of a user in 200 groups is about 11.7 KB);
 * Node's own limit on all headers, 16 KiB by default, refuses a larger one before the route sees it.
 */
const oversized: TokenAttack[] = [
  attack(
    'oversized tokens',
    'a genuine token of 12,000 characters (Entra ID, 200 groups)',
    async (kit) => bearer(await genuineOfLength(kit, 12_000)),
    'accepted',
  ),
  attack(
    'oversized tokens',
    'a genuine token of 16,000 characters',
    async (kit) => bearer(await genuineOfLength(kit, 16_000)),
    'accepted',
  ),
  attack(
    'oversized tokens',
    '12,000 characters of base64url, no dots',
    tokenOf(() => 'aB3_'.repeat(3000)),
    malformed,
  ),
  attack(
    'oversized tokens',
    'a genuine token of exactly 16 KiB (with the other headers, over Node’s limit)',
    async (kit) => bearer(await genuineOfLength(kit, 16_384)),
    { by: 'node', status: 431 },
  ),
  attack(
    'oversized tokens',
    '16 KiB + 1 characters of "a"',
    tokenOf(() => 'a'.repeat(16_385)),
    { by: 'node', status: 431 },
  ),
  attack(
    'oversized tokens',
    '20,000 characters (over Node’s header limit)',
    tokenOf(() => 'a'.repeat(20_000)),
    { by: 'node', status: 431 },
  ),
  attack(
    'oversized tokens',
    '1 MiB (over Node’s header limit)',
    tokenOf(() => 'a'.repeat(1 << 20)),
    { by: 'node', status: 431 },
  ),
];

/** RFC 6750 §2: exactly one credential, in the header, never in the query, a cookie or the body. */
const misplaced: TokenAttack[] = [
  attack(
    'repeated and misplaced credentials',
    'two Authorization headers, both the valid token',
    (kit) => ({ headers: { authorization: [`Bearer ${kit.valid}`, `Bearer ${kit.valid}`] } }),
    refused(400, 'authorization_repeated'),
  ),
  attack(
    'repeated and misplaced credentials',
    'two Authorization headers, valid then garbage',
    (kit) => ({ headers: { authorization: [`Bearer ${kit.valid}`, 'Bearer x'] } }),
    refused(400, 'authorization_repeated'),
  ),
  attack(
    'repeated and misplaced credentials',
    'two Authorization headers, garbage then valid',
    (kit) => ({ headers: { authorization: ['Bearer x', `Bearer ${kit.valid}`] } }),
    refused(400, 'authorization_repeated'),
  ),
  attack(
    'repeated and misplaced credentials',
    'two Authorization headers, Basic then Bearer',
    (kit) => ({ headers: { authorization: ['Basic dXNlcjpwYXNz', `Bearer ${kit.valid}`] } }),
    refused(400, 'authorization_repeated'),
  ),
  attack(
    'repeated and misplaced credentials',
    'two credentials in one header, comma-separated',
    (kit) => ({ headers: { authorization: `Bearer ${kit.valid}, Bearer ${kit.valid}` } }),
    // How a Web Headers object joins a repeated field: a repeat, whichever entry delivered it.
    refused(400, 'authorization_repeated'),
  ),
  attack(
    'repeated and misplaced credentials',
    'an empty Authorization header',
    () => ({ headers: { authorization: '' } }),
    missing,
  ),
  attack(
    'repeated and misplaced credentials',
    'the token in the query string',
    (kit) => ({ headers: {}, path: `/plants?access_token=${kit.valid}` }),
    missing,
  ),
  attack(
    'repeated and misplaced credentials',
    'the token in a cookie',
    (kit) => ({ headers: { cookie: `access_token=${kit.valid}; token=${kit.valid}` } }),
    missing,
  ),
  attack(
    'repeated and misplaced credentials',
    'the token in a form body',
    (kit) => ({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `access_token=${kit.valid}`,
    }),
    missing,
  ),
  attack(
    'repeated and misplaced credentials',
    'the token in X-Access-Token',
    (kit) => ({ headers: { 'x-access-token': kit.valid } }),
    missing,
  ),
  attack(
    'repeated and misplaced credentials',
    'the token in Proxy-Authorization',
    (kit) => ({ headers: { 'proxy-authorization': `Bearer ${kit.valid}` } }),
    missing,
  ),
  attack(
    'repeated and misplaced credentials',
    'a garbage query token beside a valid header (the query is ignored)',
    (kit) => ({ ...bearer(kit.valid), path: '/plants?access_token=garbage' }),
    'accepted',
  ),
  attack(
    'repeated and misplaced credentials',
    'a garbage cookie token beside a valid header (the cookie is ignored)',
    (kit) => ({
      headers: { authorization: `Bearer ${kit.valid}`, cookie: 'access_token=garbage' },
    }),
    'accepted',
  ),
];

const scheme = (name: string, value: (token: string) => string, expect: 'accepted' | Expectation) =>
  attack(
    'scheme variants',
    name,
    (kit) => ({ headers: { authorization: value(kit.valid) } }),
    expect,
  );

/** The `Bearer` scheme spelt in every way a client might, and ways it must not be. */
const schemes: TokenAttack[] = [
  scheme('"bearer" in lower case', (t) => `bearer ${t}`, 'accepted'),
  scheme('"BEARER" in capitals', (t) => `BEARER ${t}`, 'accepted'),
  scheme('"BeArEr" in mixed case', (t) => `BeArEr ${t}`, 'accepted'),
  scheme('two spaces after the scheme', (t) => `Bearer  ${t}`, 'accepted'),
  scheme('leading spaces before the scheme', (t) => `   Bearer ${t}`, 'accepted'),
  scheme('a trailing tab after the token', (t) => `Bearer ${t}\t`, 'accepted'),
  scheme('a tab between scheme and token', (t) => `Bearer\t${t}`, badHeader),
  scheme('the scheme alone', () => 'Bearer', badHeader),
  scheme('the scheme and a space', () => 'Bearer ', badHeader),
  scheme('a colon after the scheme', (t) => `Bearer:${t}`, badHeader),
  scheme('an equals sign after the scheme', (t) => `Bearer=${t}`, badHeader),
  scheme('a second word after the token', (t) => `Bearer ${t} extra`, badHeader),
  scheme('the token in quotes', (t) => `Bearer "${t}"`, badHeader),
  scheme('a comma after the token', (t) => `Bearer ${t},`, badHeader),
  scheme('a challenge instead of a credential', () => 'Bearer realm="plantstore"', badHeader),
  scheme('a Latin-1 letter in the token', () => 'Bearer caf\u00e9', badHeader),
  scheme('padding after the token', (t) => `Bearer ${t}==`, malformed),
  scheme('a token68 that is not a JWS', () => 'Bearer abc=', malformed),
  scheme('the token with no space after the scheme', (t) => `Bearer${t}`, missing),
  scheme('Basic credentials', () => 'Basic dXNlcjpwYXNz', missing),
  scheme('the Token scheme', (t) => `Token ${t}`, missing),
  scheme('the DPoP scheme', (t) => `DPoP ${t}`, missing),
  scheme('the JWT scheme', (t) => `JWT ${t}`, missing),
  attack('scheme variants', 'no Authorization header', () => ({ headers: {} }), missing),
];

/** Attacks on the token's size and place, and on the scheme that carries it. */
export const placementAttacks: readonly TokenAttack[] = [...oversized, ...misplaced, ...schemes];
