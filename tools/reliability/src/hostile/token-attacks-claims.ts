import { type Expectation, refused } from './case';
import { MAX_TOKEN_AGE } from './identity';
import { bearer, inGroup, type TokenAttack } from './token-attack';
import type { TokenKit } from './token-kit';

type Claims = (kit: TokenKit) => Readonly<Record<string, unknown>>;

/** A genuine token of the issuer with these claims over the valid ones (`undefined` removes one). */
const genuine = (claims: Claims) => async (kit: TokenKit) =>
  bearer(await kit.identity.issuer.sign(kit.claims(claims(kit))));

const claim = (name: string, expect: 'accepted' | Expectation, claims: Claims): TokenAttack => ({
  group: 'claims and time',
  name,
  build: genuine(claims),
  expect,
});

const TOLERANCE = 5;

/**
 * Claims and their time edges, signed by the genuine key: exactly at the clock tolerance and one
 * second past it (the services' clock is frozen, so these edges are exact), missing and mistyped
 * claims, audiences and issuers that almost match, scopes.
 */
const claimsAndTime: TokenAttack[] = [
  claim('exp exactly the tolerance ago', refused(401, 'token_expired'), (kit) => ({
    exp: kit.now - TOLERANCE,
  })),
  claim('exp one second inside the tolerance', 'accepted', (kit) => ({
    exp: kit.now - TOLERANCE + 1,
  })),
  claim('exp now', 'accepted', (kit) => ({ exp: kit.now })),
  claim('exp an hour ago', refused(401, 'token_expired'), (kit) => ({ exp: kit.now - 3600 })),
  claim('exp 0', refused(401, 'token_expired'), () => ({ exp: 0 })),
  claim('exp missing (required)', refused(401, 'claim_missing'), () => ({ exp: undefined })),
  claim('exp as a string', refused(401, 'claim_invalid'), (kit) => ({
    exp: String(kit.now + 600),
  })),
  claim('exp null', refused(401, 'claim_invalid'), () => ({ exp: null })),
  claim('exp a century ahead (maxTokenAge still bounds the token)', 'accepted', (kit) => ({
    exp: kit.now + 100 * 365 * 86400,
  })),
  claim('nbf exactly the tolerance ahead', 'accepted', (kit) => ({ nbf: kit.now + TOLERANCE })),
  claim('nbf one second past the tolerance', refused(401, 'token_not_yet_valid'), (kit) => ({
    nbf: kit.now + TOLERANCE + 1,
  })),
  claim('nbf as a string', refused(401, 'claim_invalid'), (kit) => ({ nbf: String(kit.now) })),
  claim('iat exactly the tolerance ahead', 'accepted', (kit) => ({ iat: kit.now + TOLERANCE })),
  claim('iat one second past the tolerance ahead', refused(401, 'claim_invalid'), (kit) => ({
    iat: kit.now + TOLERANCE + 1,
  })),
  claim('iat maxTokenAge and the tolerance ago', 'accepted', (kit) => ({
    iat: kit.now - MAX_TOKEN_AGE - TOLERANCE,
  })),
  claim('iat one second older than that', refused(401, 'token_too_old'), (kit) => ({
    iat: kit.now - MAX_TOKEN_AGE - TOLERANCE - 1,
  })),
  claim('iat missing (maxTokenAge requires it)', refused(401, 'claim_missing'), () => ({
    iat: undefined,
  })),
  claim('iat as a string', refused(401, 'claim_invalid'), (kit) => ({ iat: String(kit.now) })),
  claim('aud a list holding ours and another', 'accepted', (kit) => ({
    aud: ['other-api', kit.identity.issuer.audience],
  })),
  claim('aud a list without ours', refused(401, 'audience_mismatch'), () => ({
    aud: ['other-api'],
  })),
  claim('aud another API', refused(401, 'audience_mismatch'), () => ({ aud: 'other-api' })),
  claim('aud an empty list', refused(401, 'audience_mismatch'), () => ({ aud: [] })),
  claim('aud a number', refused(401, 'audience_mismatch'), () => ({ aud: 1 })),
  claim('aud ours with a trailing space', refused(401, 'audience_mismatch'), (kit) => ({
    aud: `${kit.identity.issuer.audience} `,
  })),
  claim('aud ours in capitals', refused(401, 'audience_mismatch'), (kit) => ({
    aud: kit.identity.issuer.audience.toUpperCase(),
  })),
  claim('aud missing', refused(401, 'claim_missing'), () => ({ aud: undefined })),
  claim('iss with a trailing slash', refused(401, 'issuer_mismatch'), (kit) => ({
    iss: `${kit.identity.issuer.issuer}/`,
  })),
  claim('iss over https', refused(401, 'issuer_mismatch'), (kit) => ({
    iss: kit.identity.issuer.issuer.replace('http:', 'https:'),
  })),
  claim('iss with the scheme in capitals', refused(401, 'issuer_mismatch'), (kit) => ({
    iss: kit.identity.issuer.issuer.replace('http:', 'HTTP:'),
  })),
  claim('iss in a list', refused(401, 'issuer_mismatch'), (kit) => ({
    iss: [kit.identity.issuer.issuer],
  })),
  claim('iss missing', refused(401, 'claim_missing'), () => ({ iss: undefined })),
  claim('sub a number', refused(401, 'claim_invalid'), () => ({ sub: 42 })),
  claim('no scope', refused(403, 'scope_insufficient'), () => ({ scope: undefined })),
  claim('another scope', refused(403, 'scope_insufficient'), () => ({ scope: 'plants:read' })),
  claim('the scope in capitals', refused(403, 'scope_insufficient'), () => ({
    scope: 'PLANTS:WRITE',
  })),
  claim('the scope joined to another by a tab', refused(403, 'scope_insufficient'), () => ({
    scope: 'plants:write\tadmin',
  })),
  claim('the scope among others', 'accepted', () => ({ scope: 'openid plants:write admin' })),
  claim('the scope in scp as a list', 'accepted', () => ({
    scope: undefined,
    scp: ['plants:write'],
  })),
  claim('a scope that is a number', refused(401, 'claim_invalid'), () => ({ scope: 42 })),
];

/** A token signed by the key the `publicKey` host trusts, so checks after the signature are reached. */
const trusted = (header: unknown, payload: (kit: TokenKit) => unknown) => (kit: TokenKit) =>
  bearer(kit.forge(header, payload(kit), { by: 'trusted' }));

const RS256 = { alg: 'RS256', typ: 'JWT' };

/** Payloads that are not a JSON object of claims, each under a good signature. */
const notClaims: readonly (readonly [string, string | Uint8Array])[] = [
  ['not JSON', 'not json'],
  ['a JSON array', '[]'],
  ['a JSON string', '"claims"'],
  ['null', 'null'],
  ['not UTF-8', Buffer.from([0x7b, 0xff, 0x7d])],
];

/** HMAC keyed with the trusted public key's PEM, as a confused verifier would check it. */
const hmacWithPem = (alg: 'HS256' | 'HS512') => (kit: TokenKit) =>
  bearer(kit.forge({ alg, typ: 'JWT' }, kit.claims(), { by: 'hmac', alg, secret: kit.trustedPem }));

/** What only a correctly signed token can reach: the payload's own format, and the key's algorithms. */
const payloadAttacks: TokenAttack[] = inGroup('payload under a trusted signature', [
  {
    name: 'a valid payload (the control)',
    build: trusted(RS256, (kit) => kit.claims()),
    expect: 'accepted',
  },
  ...notClaims.map(([what, payload]) => ({
    name: `a payload that is ${what}`,
    build: trusted(RS256, () => payload),
    expect: refused(401, 'token_malformed'),
  })),
  {
    name: 'a __proto__ claim holding the scope (it grants nothing)',
    build: trusted(RS256, (kit) =>
      JSON.stringify(kit.claims({ scope: undefined })).replace(
        /^\{/,
        '{"__proto__":{"scope":"plants:write"},',
      ),
    ),
    expect: refused(403, 'scope_insufficient'),
  },
  {
    name: 'the scope claim twice, the last one another scope',
    build: trusted(RS256, (kit) =>
      JSON.stringify(kit.claims()).replace(/\}$/, ',"scope":"plants:read"}'),
    ),
    expect: refused(403, 'scope_insufficient'),
  },
  {
    name: 'an unencoded payload (b64: false) under a good signature',
    build: (kit: TokenKit) => {
      // RFC 7797: the payload is signed as it is; `abc` is also valid base64url, so the format passes.
      const header = Buffer.from(JSON.stringify({ ...RS256, b64: false, crit: ['b64'] })).toString(
        'base64url',
      );
      const input = `${header}.abc`;
      return bearer(`${input}.${kit.signature(input, { by: 'trusted' })}`);
    },
    expect: refused(401, 'token_malformed'),
  },
  ...(['HS256', 'HS512'] as const).map((alg) => ({
    name: `${alg} keyed with the trusted SPKI PEM`,
    build: hmacWithPem(alg),
    expect: refused(401, 'algorithm_not_allowed'),
  })),
  {
    name: 'alg none against a public key',
    build: (kit: TokenKit) =>
      bearer(kit.forge({ alg: 'none' }, kit.claims(), { by: 'nobody', signature: 'AAAA' })),
    expect: refused(401, 'algorithm_not_allowed'),
  },
  {
    name: 'a kid naming nothing (a single key ignores kid)',
    build: trusted({ ...RS256, kid: '../../etc/passwd' }, (kit) => kit.claims()),
    expect: 'accepted',
  },
  {
    name: 'a jku to the attacker in a trusted token (ignored, not followed)',
    build: (kit: TokenKit) =>
      trusted({ ...RS256, jku: kit.attacker.jwksUri }, () => kit.claims())(kit),
    expect: 'accepted',
  },
]).map((attack) => ({ ...attack, target: 'public key' }));

/** Claims, time edges and what only a good signature reaches. */
export const claimAttacks: readonly TokenAttack[] = [...claimsAndTime, ...payloadAttacks];
