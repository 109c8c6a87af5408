import { refused } from './case';
import { bearer, type TokenAttack, tokenAttack } from './token-attack';
import { base64url, type TokenKit } from './token-kit';

const malformed = refused(401, 'token_malformed');
const badSignature = refused(401, 'signature_invalid');
const badHeader = refused(400, 'authorization_malformed');

const attack = tokenAttack;

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

const tokenOf = (build: (kit: TokenKit) => string) => (kit: TokenKit) => bearer(build(kit));

/** Broken compact serialisations: jose alone would accept some of these spellings. */
const encodings: TokenAttack[] = [
  attack(
    'malformed encodings',
    'padding after the signature',
    tokenOf((kit) => `${kit.valid}==`),
    malformed,
  ),
  attack(
    'malformed encodings',
    'padding inside, after the header',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}=.${p}.${s}`;
    }),
    badHeader,
  ),
  attack(
    'malformed encodings',
    'a space inside the token',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}. ${p}.${s}`;
    }),
    badHeader,
  ),
  attack(
    'malformed encodings',
    'a tab inside the token',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}.${p}\t.${s}`;
    }),
    badHeader,
  ),
  attack(
    'malformed encodings',
    '"+" in the signature (base64, not base64url)',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}.${p}.+${s.slice(1)}`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    '"/" in the payload',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}.${p.slice(0, 4)}/${p.slice(5)}.${s}`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    'a header of 4n+1 characters',
    tokenOf((kit) => {
      const [header, p, s] = parts(kit);
      let h = header;
      while (h.length % 4 !== 1) h += 'A';
      return `${h}.${p}.${s}`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    'non-canonical trailing bits in the signature',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}.${p}.${nonCanonical(s)}`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    'non-canonical trailing bits in the header',
    tokenOf((kit) => {
      const [, p, s] = parts(kit);
      return `${nonCanonical(headerOfLength2Mod4(kit))}.${p}.${s}`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    'an empty header segment',
    tokenOf((kit) => {
      const [, p, s] = parts(kit);
      return `.${p}.${s}`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    'an empty payload segment',
    tokenOf((kit) => {
      const [h, , s] = parts(kit);
      return `${h}..${s}`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    'an empty signature segment',
    tokenOf((kit) => {
      const [h, p] = parts(kit);
      return `${h}.${p}.`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    'two segments',
    tokenOf((kit) => {
      const [h, p] = parts(kit);
      return `${h}.${p}`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    'four segments',
    tokenOf((kit) => `${kit.valid}.${parts(kit)[2]}`),
    malformed,
  ),
  attack(
    'malformed encodings',
    'five segments (a JWE)',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}.${p}.${p}.${p}.${s}`;
    }),
    malformed,
  ),
  attack(
    'malformed encodings',
    'a trailing dot',
    tokenOf((kit) => `${kit.valid}.`),
    malformed,
  ),
  attack(
    'malformed encodings',
    'only dots',
    tokenOf(() => '..'),
    malformed,
  ),
  attack(
    'malformed encodings',
    'a tilde after the token',
    tokenOf((kit) => `${kit.valid}~`),
    malformed,
  ),
  attack(
    'malformed encodings',
    'a header that is not JSON',
    tokenOf((kit) => kit.forge('not json', kit.claims(), { by: 'attacker', alg: 'RS256' })),
    malformed,
  ),
  attack(
    'malformed encodings',
    'a header that is a JSON array',
    tokenOf((kit) =>
      kit.forge('[{"alg":"RS256"}]', kit.claims(), { by: 'attacker', alg: 'RS256' }),
    ),
    malformed,
  ),
  attack(
    'malformed encodings',
    'a header that is a JSON string',
    tokenOf((kit) => kit.forge('"RS256"', kit.claims(), { by: 'attacker', alg: 'RS256' })),
    malformed,
  ),
  attack(
    'malformed encodings',
    'a header that is null',
    tokenOf((kit) => kit.forge('null', kit.claims(), { by: 'attacker', alg: 'RS256' })),
    malformed,
  ),
  attack(
    'malformed encodings',
    'a header that is a number',
    tokenOf((kit) => kit.forge('256', kit.claims(), { by: 'attacker', alg: 'RS256' })),
    malformed,
  ),
  attack(
    'malformed encodings',
    'a header that is not UTF-8',
    tokenOf((kit) =>
      kit.forge(Buffer.from([0x7b, 0xff, 0x7d]), kit.claims(), { by: 'attacker', alg: 'RS256' }),
    ),
    malformed,
  ),
  attack(
    'malformed encodings',
    'alg twice, none then RS256 (the last wins)',
    tokenOf((kit) =>
      kit.forge(`{"alg":"none","kid":"${kit.kid}","alg":"RS256"}`, kit.claims(), {
        by: 'attacker',
        alg: 'RS256',
      }),
    ),
    badSignature,
  ),
  attack(
    'malformed encodings',
    'alg twice, RS256 then none (the last wins)',
    tokenOf((kit) =>
      kit.forge(`{"alg":"RS256","kid":"${kit.kid}","alg":"none"}`, kit.claims(), {
        by: 'nobody',
        signature: 'AAAA',
      }),
    ),
    refused(401, 'algorithm_not_allowed'),
  ),
  attack(
    'malformed encodings',
    'a payload that is not JSON, forged (the signature fails first)',
    tokenOf((kit) =>
      kit.forge({ alg: 'RS256', kid: kit.kid }, 'not json', { by: 'attacker', alg: 'RS256' }),
    ),
    badSignature,
  ),
];

/** Genuine tokens with one part changed: only the signature check can tell. */
const signatures: TokenAttack[] = [
  attack(
    'signatures',
    'the last character of the signature changed, still canonical',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}.${p}.${s.slice(0, -1)}${s.endsWith('A') ? 'Q' : 'A'}`;
    }),
    badSignature,
  ),
  attack(
    'signatures',
    'the signature short by two characters',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}.${p}.${s.slice(0, -2)}`;
    }),
    badSignature,
  ),
  attack(
    'signatures',
    'a signature of zero bytes',
    tokenOf((kit) => {
      const [h, p] = parts(kit);
      return `${h}.${p}.${'A'.repeat(342)}`;
    }),
    badSignature,
  ),
  attack(
    'signatures',
    'the signature twice',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}.${p}.${s}${s}`;
    }),
    badSignature,
  ),
  attack(
    'signatures',
    'a signature of ES256 length',
    tokenOf((kit) => {
      const [h, p, s] = parts(kit);
      return `${h}.${p}.${s.slice(0, 85)}A`;
    }),
    badSignature,
  ),
  attack(
    'signatures',
    'the payload changed, the signature kept',
    tokenOf((kit) => {
      const [h, , s] = parts(kit);
      return `${h}.${base64url(JSON.stringify(kit.claims({ sub: 'admin' })))}.${s}`;
    }),
    badSignature,
  ),
  attack(
    'signatures',
    'the header changed, the signature kept',
    tokenOf((kit) => {
      const [, p, s] = parts(kit);
      return `${base64url(JSON.stringify({ alg: 'RS256', kid: kit.kid, typ: 'at+jwt' }))}.${p}.${s}`;
    }),
    badSignature,
  ),
  attack(
    'signatures',
    'the signature of another genuine token',
    async (kit) => {
      const [h, p] = parts(kit);
      const other = (await kit.identity.sign({ sub: 'other' })).split('.')[2] ?? '';
      return bearer(`${h}.${p}.${other}`);
    },
    badSignature,
  ),
  attack(
    'signatures',
    'the header in place of the payload',
    tokenOf((kit) => {
      const [h, , s] = parts(kit);
      return `${h}.${h}.${s}`;
    }),
    badSignature,
  ),
];

/** Attacks on the token's spelling: its encoding and its signature. */
export const formatAttacks: readonly TokenAttack[] = [...encodings, ...signatures];
