import type { PlantServiceErrorCode } from '@plantstore/core';
import fc from 'fast-check';
import type { CaseHeaders } from './case';

/** A refusal a header causes: the statuses and reason codes it may answer with. */
export interface Refusal {
  readonly statuses: readonly number[];
  readonly codes: readonly PlantServiceErrorCode[];
}

/** One spelling of a header, and what it causes on its own. */
export interface HeaderVariant {
  readonly label: string;
  /** Header values; an array repeats the header, an absent name leaves it out. */
  readonly headers: CaseHeaders;
  /** Undefined when the route accepts it. */
  readonly refusal?: Refusal;
}

/** The tokens the authorization variants use, minted before the run. */
export interface FuzzTokens {
  readonly valid: string;
  readonly expired: string;
  readonly otherAudience: string;
  readonly noScope: string;
}

const refusal = (status: number, ...codes: PlantServiceErrorCode[]): Refusal => ({
  statuses: [status],
  codes,
});

const TOKEN_CODES: PlantServiceErrorCode[] = [
  'token_malformed',
  'token_too_large',
  'signature_invalid',
  'algorithm_not_allowed',
  'key_not_found',
  'claim_invalid',
  'claim_missing',
  'issuer_mismatch',
  'audience_mismatch',
  'token_expired',
];

/** Accepted spellings of a valid credential; they make most of the runs. */
function validAuth(tokens: FuzzTokens): HeaderVariant[] {
  return [
    { label: 'Bearer <valid>', headers: { authorization: `Bearer ${tokens.valid}` } },
    { label: 'bearer <valid>', headers: { authorization: `bearer ${tokens.valid}` } },
    {
      label: 'Bearer  <valid> (two spaces)',
      headers: { authorization: `Bearer  ${tokens.valid}` },
    },
  ];
}

/** Credentials refused for a reason the variant knows. */
function refusedAuth(tokens: FuzzTokens): HeaderVariant[] {
  const [header = '', payload = '', signature = ''] = tokens.valid.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url')}.${signature}`;
  return [
    { label: 'no Authorization', headers: {}, refusal: refusal(401, 'token_missing') },
    {
      label: 'Basic',
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
      refusal: refusal(401, 'token_missing'),
    },
    {
      label: 'two Authorization headers',
      headers: { authorization: [`Bearer ${tokens.valid}`, `Bearer ${tokens.valid}`] },
      refusal: refusal(400, 'authorization_repeated'),
    },
    {
      label: 'Bearer alone',
      headers: { authorization: 'Bearer' },
      refusal: refusal(401, 'authorization_malformed'),
    },
    {
      label: 'Bearer\\t<valid>',
      headers: { authorization: `Bearer\t${tokens.valid}` },
      refusal: refusal(401, 'authorization_malformed'),
    },
    {
      label: 'two tokens',
      headers: { authorization: `Bearer ${tokens.valid} ${tokens.valid}` },
      refusal: refusal(401, 'authorization_malformed'),
    },
    {
      label: 'an expired token',
      headers: { authorization: `Bearer ${tokens.expired}` },
      refusal: refusal(401, 'token_expired'),
    },
    {
      label: 'a token for another audience',
      headers: { authorization: `Bearer ${tokens.otherAudience}` },
      refusal: refusal(401, 'audience_mismatch'),
    },
    {
      label: 'a token without the scope',
      headers: { authorization: `Bearer ${tokens.noScope}` },
      refusal: refusal(403, 'scope_insufficient'),
    },
    {
      label: 'a tampered payload',
      headers: { authorization: `Bearer ${tampered}` },
      refusal: refusal(401, 'signature_invalid'),
    },
    {
      label: 'padding after the token',
      headers: { authorization: `Bearer ${tokens.valid}=` },
      refusal: refusal(401, 'token_malformed'),
    },
  ];
}

/** `Bearer <anything of token characters>`: a 401, malformed or invalid. */
const arbitraryBearer: fc.Arbitrary<HeaderVariant> = fc
  .stringMatching(/^[A-Za-z0-9._~+/-]{0,60}=?$/)
  .map((token) => ({
    label: 'Bearer <arbitrary>',
    headers: { authorization: `Bearer ${token}` },
    refusal: { statuses: [401], codes: ['authorization_malformed', ...TOKEN_CODES] },
  }));

/**
 * The `Authorization` header: mostly the valid token (so bodies get judged), else every kind of
 * refusal.
 *
 * @param tokens - the tokens minted for the run
 * @returns the arbitrary
 */
export function authorizationVariant(tokens: FuzzTokens): fc.Arbitrary<HeaderVariant> {
  return fc.oneof(
    { weight: 24, arbitrary: fc.constantFrom(...validAuth(tokens)) },
    { weight: 4, arbitrary: fc.constantFrom(...refusedAuth(tokens)) },
    { weight: 1, arbitrary: arbitraryBearer },
  );
}

const unsupportedType = refusal(415, 'media_type_unsupported');

/** `Content-Type`: mostly `application/json`, sometimes a spelling the contract refuses. */
export const contentTypeVariant: fc.Arbitrary<HeaderVariant> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.constantFrom<HeaderVariant>(
      { label: 'application/json', headers: { 'content-type': 'application/json' } },
      {
        label: 'application/json; charset=utf-8',
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
      {
        label: 'APPLICATION/JSON; charset="UTF-8"',
        headers: { 'content-type': 'APPLICATION/JSON; charset="UTF-8"' },
      },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<HeaderVariant>(
      { label: 'no Content-Type', headers: {}, refusal: unsupportedType },
      { label: 'text/plain', headers: { 'content-type': 'text/plain' }, refusal: unsupportedType },
      {
        label: 'charset=utf-16',
        headers: { 'content-type': 'application/json; charset=utf-16' },
        refusal: unsupportedType,
      },
      {
        label: 'application/json-seq',
        headers: { 'content-type': 'application/json-seq' },
        refusal: unsupportedType,
      },
      {
        label: 'two Content-Type headers',
        headers: { 'content-type': ['application/json', 'application/json'] },
        refusal: unsupportedType,
      },
    ),
  },
);

const compressed = refusal(415, 'content_encoding_unsupported');

/** `Content-Encoding`: mostly absent, sometimes identity or a compression. */
export const contentEncodingVariant: fc.Arbitrary<HeaderVariant> = fc.oneof(
  {
    weight: 30,
    arbitrary: fc.constant<HeaderVariant>({ label: 'no Content-Encoding', headers: {} }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<HeaderVariant>(
      { label: 'identity', headers: { 'content-encoding': 'identity' } },
      { label: 'gzip', headers: { 'content-encoding': 'gzip' }, refusal: compressed },
      {
        label: 'identity, gzip',
        headers: { 'content-encoding': 'identity, gzip' },
        refusal: compressed,
      },
      { label: 'br', headers: { 'content-encoding': 'br' }, refusal: compressed },
      { label: 'two identity headers', headers: { 'content-encoding': ['identity', 'identity'] } },
      {
        label: 'identity and gzip headers',
        headers: { 'content-encoding': ['identity', 'gzip'] },
        refusal: compressed,
      },
    ),
  },
);
