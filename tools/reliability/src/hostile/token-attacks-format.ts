import { type Expectation, refused } from './case';
import { bearer, type TokenAttack, tokenAttack, type TokenGroup } from './token-attack';
import { base64url, type Signer, type TokenKit } from './token-kit';

const malformed = refused(401, 'token_malformed');
const badSignature = refused(401, 'signature_invalid');
const badHeader = refused(401, 'authorization_malformed');

/** The three segments of the valid token. */
const parts = (kit: TokenKit): [string, string, string] => {
  const [header = '', payload = '', signature = ''] = kit.valid.split('.');
  return [header, payload, signature];
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A segment whose last character keeps the same bytes but sets a bit the encoding leaves over. */
function nonCanonical(segment: string): string {
  const spare = segment.length % 4 === 2 ? 0x0f : 0x03;
  const value = ALPHABET.indexOf(segment.at(-1) ?? 'A');
  return segment.slice(0, -1) + (ALPHABET[(value & ~spare) | 1] ?? 'B');
}

/** A forged header whose base64url length is 4n+2, so it has four spare bits. */
function headerOfLength2Mod4(kit: TokenKit): string {
  for (let pad = 0; ; pad += 1) {
    const segment = base64url(JSON.stringify({ alg: 'RS256', kid: kit.kid, pad: 'x'.repeat(pad) }));
    if (segment.length % 4 === 2) return segment;
  }
}

/** A token built from the valid token's three segments (header, payload, signature). */
type Respell = (segments: [string, string, string], kit: TokenKit) => string | Promise<string>;

/** One attack of a table: its sentence, the token it sends, the answer. */
type Row = readonly [name: string, token: Respell, expect: Expectation];

/** The attacks of a table, each sending its token as `Authorization: Bearer <token>`. */
const table = (group: TokenGroup, rows: readonly Row[]): TokenAttack[] =>
  rows.map(([name, token, expect]) =>
    tokenAttack(group, name, async (kit) => bearer(await token(parts(kit), kit)), expect),
  );

const byAttacker: Signer = { by: 'attacker', alg: 'RS256' };

/** A token whose header segment is this text (or these bytes), valid claims, signed by the attacker. */
const headerOf =
  (text: string | Uint8Array): Respell =>
  (_, kit) =>
    kit.forge(text, kit.claims(), byAttacker);

/** A header of 4n+1 characters: the valid one padded with `A`s. */
function oneOverFour(header: string): string {
  let padded = header;
  while (padded.length % 4 !== 1) padded += 'A';
  return padded;
}

/** Broken compact serialisations: jose alone would accept some of these spellings. */
const encodings = table('malformed encodings', [
  ['padding after the signature', ([h, p, s]) => `${h}.${p}.${s}==`, malformed],
  ['padding inside, after the header', ([h, p, s]) => `${h}=.${p}.${s}`, badHeader],
  ['a space inside the token', ([h, p, s]) => `${h}. ${p}.${s}`, badHeader],
  ['a tab inside the token', ([h, p, s]) => `${h}.${p}\t.${s}`, badHeader],
  [
    '"+" in the signature (base64, not base64url)',
    ([h, p, s]) => `${h}.${p}.+${s.slice(1)}`,
    malformed,
  ],
  ['"/" in the payload', ([h, p, s]) => `${h}.${p.slice(0, 4)}/${p.slice(5)}.${s}`, malformed],
  ['a header of 4n+1 characters', ([h, p, s]) => `${oneOverFour(h)}.${p}.${s}`, malformed],
  [
    'non-canonical trailing bits in the signature',
    ([h, p, s]) => `${h}.${p}.${nonCanonical(s)}`,
    malformed,
  ],
  [
    'non-canonical trailing bits in the header',
    ([, p, s], kit) => `${nonCanonical(headerOfLength2Mod4(kit))}.${p}.${s}`,
    malformed,
  ],
  ['an empty header segment', ([, p, s]) => `.${p}.${s}`, malformed],
  ['an empty payload segment', ([h, , s]) => `${h}..${s}`, malformed],
  ['an empty signature segment', ([h, p]) => `${h}.${p}.`, malformed],
  ['two segments', ([h, p]) => `${h}.${p}`, malformed],
  ['four segments', ([h, p, s]) => `${h}.${p}.${s}.${s}`, malformed],
  ['five segments (a JWE)', ([h, p, s]) => `${h}.${p}.${p}.${p}.${s}`, malformed],
  ['a trailing dot', ([h, p, s]) => `${h}.${p}.${s}.`, malformed],
  ['only dots', () => '..', malformed],
  ['a tilde after the token', ([h, p, s]) => `${h}.${p}.${s}~`, malformed],
  ['a header that is not JSON', headerOf('not json'), malformed],
  ['a header that is a JSON array', headerOf('[{"alg":"RS256"}]'), malformed],
  ['a header that is a JSON string', headerOf('"RS256"'), malformed],
  ['a header that is null', headerOf('null'), malformed],
  ['a header that is a number', headerOf('256'), malformed],
  ['a header that is not UTF-8', headerOf(Buffer.from([0x7b, 0xff, 0x7d])), malformed],
  [
    'alg twice, none then RS256 (the last wins)',
    (_, kit) => headerOf(`{"alg":"none","kid":"${kit.kid}","alg":"RS256"}`)(_, kit),
    badSignature,
  ],
  [
    'alg twice, RS256 then none (the last wins)',
    (_, kit) =>
      kit.forge(`{"alg":"RS256","kid":"${kit.kid}","alg":"none"}`, kit.claims(), {
        by: 'nobody',
        signature: 'AAAA',
      }),
    refused(401, 'algorithm_not_allowed'),
  ],
  [
    'a payload that is not JSON, forged (the signature fails first)',
    (_, kit) => kit.forge({ alg: 'RS256', kid: kit.kid }, 'not json', byAttacker),
    badSignature,
  ],
]);

/** Genuine tokens with one part changed: only the signature check can tell. */
const signatures = table('signatures', [
  [
    'the last character of the signature changed, still canonical',
    ([h, p, s]) => `${h}.${p}.${s.slice(0, -1)}${s.endsWith('A') ? 'Q' : 'A'}`,
    badSignature,
  ],
  [
    'the signature short by two characters',
    ([h, p, s]) => `${h}.${p}.${s.slice(0, -2)}`,
    badSignature,
  ],
  ['a signature of zero bytes', ([h, p]) => `${h}.${p}.${'A'.repeat(342)}`, badSignature],
  ['the signature twice', ([h, p, s]) => `${h}.${p}.${s}${s}`, badSignature],
  ['a signature of ES256 length', ([h, p, s]) => `${h}.${p}.${s.slice(0, 85)}A`, badSignature],
  [
    'the payload changed, the signature kept',
    ([h, , s], kit) => `${h}.${base64url(JSON.stringify(kit.claims({ sub: 'admin' })))}.${s}`,
    badSignature,
  ],
  [
    'the header changed, the signature kept',
    ([, p, s], kit) =>
      `${base64url(JSON.stringify({ alg: 'RS256', kid: kit.kid, typ: 'at+jwt' }))}.${p}.${s}`,
    badSignature,
  ],
  [
    'the signature of another genuine token',
    async ([h, p], kit) =>
      `${h}.${p}.${(await kit.identity.sign({ sub: 'other' })).split('.')[2] ?? ''}`,
    badSignature,
  ],
  ['the header in place of the payload', ([h, , s]) => `${h}.${h}.${s}`, badSignature],
]);

/** Attacks on the token's spelling: its encoding and its signature. */
export const formatAttacks: readonly TokenAttack[] = [...encodings, ...signatures];
