import { type Expectation, refused } from './case';
import { bearer, inGroup, type TokenAttack } from './token-attack';
import type { Signer, TokenKit } from './token-kit';

const malformed = refused(401, 'token_malformed');
const notAllowed = refused(401, 'algorithm_not_allowed');
const noKey = refused(401, 'key_not_found');
const badSignature = refused(401, 'signature_invalid');

const attackerRs: Signer = { by: 'attacker', alg: 'RS256' };

/** A token with this header (merged over `typ`), valid claims, signed by `signer`. */
const forged =
  (header: Readonly<Record<string, unknown>>, signer: Signer = attackerRs) =>
  (kit: TokenKit) =>
    bearer(kit.forge({ typ: 'JWT', ...header }, kit.claims(), signer));

/** The same, with the issuer's kid filled in. */
const withOurKid =
  (header: Readonly<Record<string, unknown>>, signer: Signer = attackerRs) =>
  (kit: TokenKit) =>
    bearer(kit.forge({ typ: 'JWT', kid: kit.kid, ...header }, kit.claims(), signer));

type Header = Record<string, unknown>;

const noneCasings = ['none', 'None', 'NONE', 'nOnE'];

/** `alg` values that are missing, not a string, or an allowed name misspelt. */
const badAlgs: readonly (readonly [string, Header, Expectation])[] = [
  ['no alg at all', {}, malformed],
  ['an empty alg', { alg: '' }, malformed],
  ['a numeric alg', { alg: 256 }, malformed],
  ['a null alg', { alg: null }, malformed],
  ['alg "rs256" in lower case', { alg: 'rs256' }, notAllowed],
  ['alg "RS256 " with a trailing space', { alg: 'RS256 ' }, notAllowed],
];

/** RFC 8725 §2.1, §3.1: `alg: none` in every casing, with and without a signature. */
const algNone: TokenAttack[] = [
  ...noneCasings.map((alg): TokenAttack => ({
    group: 'alg none',
    name: `alg "${alg}" with an empty signature`,
    build: withOurKid({ alg }, { by: 'nobody', signature: '' }),
    expect: malformed,
  })),
  ...noneCasings.map((alg): TokenAttack => ({
    group: 'alg none',
    name: `alg "${alg}" with a signature`,
    build: withOurKid({ alg }, { by: 'nobody', signature: 'AAAA' }),
    expect: notAllowed,
  })),
  {
    group: 'alg none',
    name: 'alg "none" with the signature of a genuine token',
    build: (kit) =>
      withOurKid({ alg: 'none' }, { by: 'nobody', signature: kit.valid.split('.')[2] ?? '' })(kit),
    expect: notAllowed,
  },
  ...badAlgs.map(([name, header, expect]): TokenAttack => ({
    group: 'alg none',
    name,
    build: withOurKid(header),
    expect,
  })),
];

/** HMAC with the public key's bytes as the secret, per form of the key an attacker can fetch. */
const hmacWith =
  (alg: 'HS256' | 'HS384' | 'HS512', secret: (kit: TokenKit) => string | Uint8Array) =>
  (kit: TokenKit) =>
    withOurKid({ alg }, { by: 'hmac', alg, secret: secret(kit) })(kit);

/** RFC 8725 §2.1 algorithm confusion: HS* keyed with the RSA public key, and other key types. */
const confusion: TokenAttack[] = inGroup(
  'algorithm confusion',
  [
    {
      name: 'HS256 keyed with the public key as SPKI PEM',
      build: hmacWith('HS256', (kit) => kit.issuerPem),
    },
    {
      name: 'HS256 keyed with the SPKI PEM without its final newline',
      build: hmacWith('HS256', (kit) => kit.issuerPem.trimEnd()),
    },
    {
      name: 'HS256 keyed with the public key as PKCS#1 PEM',
      build: hmacWith('HS256', (kit) => kit.issuerPkcs1Pem),
    },
    {
      name: 'HS256 keyed with the published JWK as JSON',
      build: hmacWith('HS256', (kit) => JSON.stringify(kit.issuerJwk)),
    },
    {
      name: 'HS256 keyed with the modulus bytes',
      build: hmacWith('HS256', (kit) => Buffer.from(String(kit.issuerJwk.n), 'base64url')),
    },
    { name: 'HS384 keyed with the SPKI PEM', build: hmacWith('HS384', (kit) => kit.issuerPem) },
    { name: 'HS512 keyed with the SPKI PEM', build: hmacWith('HS512', (kit) => kit.issuerPem) },
  ].map((attack) => ({ ...attack, expect: notAllowed })),
);

confusion.push(
  {
    group: 'algorithm confusion',
    name: 'ES256 by the attacker under the RSA key’s kid',
    build: withOurKid({ alg: 'ES256' }, { by: 'attacker', alg: 'ES256' }),
    expect: noKey,
  },
  {
    group: 'algorithm confusion',
    name: 'EdDSA by the attacker under the RSA key’s kid',
    build: withOurKid({ alg: 'EdDSA' }, { by: 'attacker', alg: 'EdDSA' }),
    expect: noKey,
  },
  {
    group: 'algorithm confusion',
    name: 'PS256 by the genuine RSA key (an RSA algorithm the key fits)',
    build: async (kit) =>
      bearer(await kit.identity.issuer.sign(kit.claims(), { algorithm: 'PS256' })),
    expect: 'accepted',
  },
  {
    group: 'algorithm confusion',
    name: 'RS512 by the genuine RSA key',
    build: async (kit) =>
      bearer(await kit.identity.issuer.sign(kit.claims(), { algorithm: 'RS512' })),
    expect: 'accepted',
  },
);

/** `kid` values that select nothing, or the right key with the wrong signature. */
const kids: [string, unknown][] = [
  ['a path traversal', `${'../'.repeat(6)}etc/passwd`],
  ['/dev/null', '/dev/null'],
  ['SQL that is always true', "' OR '1'='1"],
  ['SQL that drops a table', "x'; DROP TABLE plants; --"],
  ['an unknown UUID', '6c4b1f3e-2f6a-4d8e-9a51-0c2f3b9d7e11'],
  ['an empty string', ''],
  ['4,000 characters', 'k'.repeat(4000)],
  ['a number', 123],
  ['null', null],
  ['an object', { $ne: '' }],
  ['a URL', 'https://attacker.example/key.pem'],
  ['a NUL character', 'key\u0000'],
];

const kidTricks: TokenAttack[] = [
  ...kids.map(([what, kid]): TokenAttack => ({
    group: 'kid tricks',
    name: `kid: ${what}`,
    build: forged({ alg: 'RS256', kid }),
    expect: noKey,
  })),
  ...(
    [
      ['in an array', (kid: string) => [kid]],
      ['with a trailing space', (kid: string) => `${kid} `],
      ['in capitals', (kid: string) => kid.toUpperCase()],
    ] as const
  ).map(([what, variant]): TokenAttack => ({
    group: 'kid tricks',
    name: `kid: the issuer’s kid ${what}`,
    build: (kit) => forged({ alg: 'RS256', kid: variant(kit.kid) })(kit),
    expect: noKey,
  })),
  {
    group: 'kid tricks',
    name: 'kid: the issuer’s, signed by the attacker',
    build: withOurKid({ alg: 'RS256' }),
    expect: badSignature,
  },
  {
    group: 'kid tricks',
    name: 'no kid, signed by the attacker',
    build: forged({ alg: 'RS256' }),
    expect: badSignature,
  },
  {
    group: 'kid tricks',
    name: 'no kid, signed by the genuine key',
    build: async (kit) =>
      bearer(await kit.identity.issuer.sign(kit.claims(), { header: { kid: undefined } })),
    expect: 'accepted',
  },
  {
    group: 'kid tricks',
    name: 'kid: the issuer’s, signed by the issuer’s unpublished key',
    build: async (kit) =>
      bearer(
        await kit.identity.issuer.sign(kit.claims(), {
          key: 'unpublished',
          header: { kid: kit.kid },
        }),
      ),
    expect: badSignature,
  },
  {
    group: 'kid tricks',
    name: 'kid: of the issuer’s unpublished key',
    build: async (kit) =>
      bearer(await kit.identity.issuer.sign(kit.claims(), { key: 'unpublished' })),
    expect: noKey,
  },
];

/** Key-locating headers pointing at the attacker (or at the issuer's own JWKS). */
const LOCATORS = {
  'jku to the attacker’s JWKS': (kit) => ({ jku: kit.attacker.jwksUri }),
  'jku to the issuer’s own JWKS': (kit) => ({ jku: kit.identity.issuer.jwksUri }),
  'x5u to the attacker': (kit) => ({ x5u: kit.attacker.certUri }),
  'jwk embedding the attacker’s key': (kit) => ({ jwk: kit.attacker.publicJwk }),
  'x5c with a certificate chain': () => ({
    x5c: [Buffer.from('attacker certificate').toString('base64')],
  }),
} satisfies Record<string, (kit: TokenKit) => Header>;

/** The kid beside the locator, and the answer it leads to: no key found, or a bad signature. */
const KIDS = {
  'the attacker’s kid': [(kit) => ({ kid: kit.attacker.kid }), noKey],
  'the issuer’s kid': [(kit) => ({ kid: kit.kid }), badSignature],
  'no kid': [() => ({}), badSignature],
} satisfies Record<string, readonly [(kit: TokenKit) => Header, Expectation]>;

/** RFC 8725 §3.10: key-locating headers must never be followed. The attacker's server counts. */
const keyHeaders: TokenAttack[] = inGroup('key headers (jku, x5u, jwk, x5c)', [
  ...(
    [
      ['jku to the attacker’s JWKS', 'the attacker’s kid'],
      ['jku to the attacker’s JWKS', 'the issuer’s kid'],
      ['jku to the issuer’s own JWKS', 'the attacker’s kid'],
      ['x5u to the attacker', 'the attacker’s kid'],
      ['jwk embedding the attacker’s key', 'no kid'],
      ['jwk embedding the attacker’s key', 'the attacker’s kid'],
      ['x5c with a certificate chain', 'the attacker’s kid'],
      ['x5c with a certificate chain', 'no kid'],
    ] as const
  ).map(([locator, kid]) => {
    const [kidOf, expect] = KIDS[kid];
    const locate = LOCATORS[locator];
    return {
      name: `${locator}, ${kid}`,
      build: (kit: TokenKit) => forged({ alg: 'RS256', ...kidOf(kit), ...locate(kit) })(kit),
      expect,
    };
  }),
  {
    name: 'jku, x5u, jwk and x5c together, the issuer’s kid',
    build: (kit: TokenKit) =>
      withOurKid({
        alg: 'RS256',
        jku: kit.attacker.jwksUri,
        x5u: kit.attacker.certUri,
        jwk: kit.attacker.publicJwk,
        x5c: ['AAAA'],
      })(kit),
    expect: badSignature,
  },
  {
    name: 'jku and x5u to the attacker in a genuine token (ignored, not followed)',
    build: async (kit: TokenKit) =>
      bearer(
        await kit.identity.issuer.sign(kit.claims(), {
          header: { jku: kit.attacker.jwksUri, x5u: kit.attacker.certUri },
        }),
      ),
    expect: 'accepted',
  },
]);

/** RFC 7515 §4.1.11: a `crit` the verifier does not understand is refused before any key is used. */
const crit: TokenAttack[] = inGroup('crit', [
  {
    name: 'crit naming an unknown extension',
    build: withOurKid({ alg: 'RS256', crit: ['x-custom'], 'x-custom': 1 }),
    expect: malformed,
  },
  {
    name: 'crit naming an extension that is absent',
    build: withOurKid({ alg: 'RS256', crit: ['x-custom'] }),
    expect: malformed,
  },
  { name: 'crit empty', build: withOurKid({ alg: 'RS256', crit: [] }), expect: malformed },
  {
    name: 'crit as a string',
    build: withOurKid({ alg: 'RS256', crit: 'x-custom', 'x-custom': 1 }),
    expect: malformed,
  },
  {
    name: 'crit naming alg, a registered header',
    build: withOurKid({ alg: 'RS256', crit: ['alg'] }),
    expect: malformed,
  },
  {
    name: 'crit naming exp, a claim',
    build: withOurKid({ alg: 'RS256', crit: ['exp'] }),
    expect: malformed,
  },
  {
    name: 'crit b64 with b64 false (forged)',
    build: withOurKid({ alg: 'RS256', crit: ['b64'], b64: false }),
    expect: badSignature,
  },
]);

/** Attacks on how the key is chosen: alg none, confusion, kid, key headers, crit. */
export const keyAttacks: readonly TokenAttack[] = [
  ...algNone,
  ...confusion,
  ...kidTricks,
  ...keyHeaders,
  ...crit,
];
