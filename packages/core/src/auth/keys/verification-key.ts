import type { JsonWebKey, KeyObject } from 'node:crypto';
import type { CryptoKey, JWK } from 'jose';
import { nodeBuiltin, requireNodeCrypto } from '../../common/node-builtin';
import { describeValue, type Factory, optionError } from '../../options/check-options';

/** HMAC algorithms, for a shared secret. */
export const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
const RSA = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] as const;
/** Every public-key algorithm `jwtBearer` verifies (what a JWKS allows by default). */
export const ASYMMETRIC_ALGORITHMS = [
  ...RSA,
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** A JWS algorithm `jwtBearer` can verify. `none` is never one. */
export type JwsAlgorithm =
  (typeof HMAC_ALGORITHMS)[number] | (typeof ASYMMETRIC_ALGORITHMS)[number];

/** A key imported once at start-up, with the algorithms it can verify. */
export interface VerificationKey {
  readonly key: KeyObject | CryptoKey | Uint8Array;
  readonly allowed: readonly JwsAlgorithm[];
}

// RFC 7518 §3.2: an HMAC key at least as long as the hash output.
const HMAC_MIN_BYTES = { HS256: 32, HS384: 48, HS512: 64 } as const;
const ED25519: readonly JwsAlgorithm[] = ['EdDSA', 'Ed25519'];

/**
 * Reads a shared secret: at least 32 bytes, copied so later changes by the caller do not apply.
 *
 * @param value - the `secret` option
 * @param option - its name in error messages (`issuers[1].secret` for an issuer's)
 * @param factory - the function it is an option of
 * @returns the bytes, and the HS algorithms the secret is long enough for
 * @throws TypeError when the secret is not a string or bytes, or is shorter than 32 bytes
 * @example
 * ```ts
 * importSecret(process.env.JWT_SECRET).allowed; // ['HS256'] for a secret of 32 to 47 bytes
 * ```
 */
export function importSecret(
  value: unknown,
  option = 'secret',
  factory: Factory = 'jwtBearer',
): VerificationKey {
  let key: Uint8Array;
  if (typeof value === 'string') key = new TextEncoder().encode(value);
  else if (value instanceof Uint8Array) key = new Uint8Array(value);
  else
    return optionError(factory, option, 'must be a string or a Uint8Array', describeValue(value));
  if (key.byteLength < HMAC_MIN_BYTES.HS256) {
    optionError(
      factory,
      option,
      'must be at least 32 bytes (RFC 7518 §3.2)',
      `${key.byteLength} bytes`,
    );
  }
  return { key, allowed: HMAC_ALGORITHMS.filter((alg) => key.byteLength >= HMAC_MIN_BYTES[alg]) };
}

function ofKeyObject(key: KeyObject, option: string): readonly JwsAlgorithm[] {
  if (key.type !== 'public')
    return optionError('jwtBearer', option, 'must be a public key', `a ${key.type} key`);
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (type === 'rsa') {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits >= 2048) return RSA;
    return optionError(
      'jwtBearer',
      option,
      'must be an RSA key of 2048 bits or more',
      `${bits} bits`,
    );
  }
  if (type === 'ec' && curve === 'prime256v1') return ['ES256'];
  if (type === 'ec' && curve === 'secp384r1') return ['ES384'];
  if (type === 'ec' && curve === 'secp521r1') return ['ES512'];
  if (type === 'ed25519') return ED25519;
  // rsa-pss keys are left out on purpose: Node 20 cannot hand them to jose.
  const received = `a ${type ?? 'unknown'}${curve === undefined ? '' : ` ${curve}`} key`;
  return optionError(
    'jwtBearer',
    option,
    'must be an RSA, EC (P-256, P-384, P-521) or Ed25519 key',
    received,
  );
}

function ofCryptoKey(key: CryptoKey, option: string): readonly JwsAlgorithm[] {
  if (key.type !== 'public' || !key.usages.includes('verify')) {
    return optionError(
      'jwtBearer',
      option,
      'must be a public CryptoKey usable to verify',
      `a ${key.type} CryptoKey`,
    );
  }
  const { name, hash, namedCurve } = key.algorithm as {
    name: string;
    hash?: { name: string };
    namedCurve?: string;
  };
  const bits = hash?.name.replace('SHA-', '') ?? '';
  const candidates: Record<string, string | undefined> = {
    'RSASSA-PKCS1-v1_5': `RS${bits}`,
    'RSA-PSS': `PS${bits}`,
    ECDSA: { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[namedCurve ?? ''],
  };
  if (name === 'Ed25519') return ED25519;
  const algorithm = ASYMMETRIC_ALGORITHMS.find((alg) => alg === candidates[name]);
  if (algorithm !== undefined) return [algorithm];
  return optionError(
    'jwtBearer',
    option,
    'must be an RSA, ECDSA or Ed25519 CryptoKey',
    `a ${name} CryptoKey`,
  );
}

/** Whether a value is a WebCrypto key (by its tag: a key from another realm is one too). */
export function isCryptoKey(value: unknown): value is CryptoKey {
  return (value as { [Symbol.toStringTag]?: unknown } | null)?.[Symbol.toStringTag] === 'CryptoKey';
}

function importJwk(jwk: JWK, option: string): VerificationKey {
  if (jwk.kty === 'oct' || jwk.d !== undefined || jwk.priv !== undefined) {
    return optionError(
      'jwtBearer',
      option,
      'must be a public JWK',
      'a JWK with private or secret material',
    );
  }
  if (
    (jwk.use ?? 'sig') !== 'sig' ||
    (jwk.key_ops !== undefined && !jwk.key_ops.includes('verify'))
  ) {
    return optionError(
      'jwtBearer',
      option,
      'must be a JWK for signatures',
      'a JWK for another use',
    );
  }
  const { createPublicKey } = requireNodeCrypto(
    `jwtBearer: option "${option}" as a JWK`,
    'a CryptoKey (crypto.subtle.importKey) or a jwksUri',
  );
  let key: KeyObject;
  try {
    // node:crypto imports synchronously, so a broken JWK fails at start-up, not on a request.
    key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch (cause) {
    const received = `a JWK of kty ${String(jwk.kty)}`;
    throw new TypeError(`jwtBearer: option "${option}" must be a valid JWK; received ${received}`, {
      cause,
    });
  }
  const allowed = ofKeyObject(key, option);
  if (jwk.alg === undefined) return { key, allowed };
  const named = allowed.find((alg) => alg === jwk.alg);
  if (named !== undefined) return { key, allowed: [named] };
  return optionError(
    'jwtBearer',
    option,
    'must name an alg that fits its key type',
    `alg ${jwk.alg}`,
  );
}

/**
 * Imports a public key once, at start-up, and tells which algorithms it can verify.
 *
 * @param value - the `publicKey` option: PEM (SPKI or PKCS#1), a public JWK, a `KeyObject` or a
 *   `CryptoKey`
 * @param option - its name in error messages (`issuers[1].publicKey` for an issuer's)
 * @returns the key as jose takes it, and the algorithms that fit its type
 * @throws TypeError for private or secret keys, unreadable PEM or JWK, RSA under 2048 bits, and
 *   key types jose cannot verify with
 * @example
 * ```ts
 * importPublicKey(readFileSync('public.pem', 'utf8')).allowed; // ['RS256', …, 'PS512']
 * ```
 */
export function importPublicKey(value: unknown, option = 'publicKey'): VerificationKey {
  // A KeyObject can only come from node:crypto: without it, nothing is one.
  const KeyObjectClass = nodeBuiltin('node:crypto')?.KeyObject;
  if (KeyObjectClass !== undefined && value instanceof KeyObjectClass) {
    return { key: value, allowed: ofKeyObject(value, option) };
  }
  if (isCryptoKey(value)) return { key: value, allowed: ofCryptoKey(value, option) };
  if (typeof value === 'string') {
    if (value.includes('PRIVATE KEY')) {
      return optionError(
        'jwtBearer',
        option,
        'must be a public key, not a private one',
        'a PEM private key',
      );
    }
    const { createPublicKey } = requireNodeCrypto(
      `jwtBearer: option "${option}" as PEM`,
      'a CryptoKey (crypto.subtle.importKey) or a jwksUri',
    );
    let key: KeyObject;
    try {
      key = createPublicKey(value);
    } catch (cause) {
      const received = describeValue(value);
      throw new TypeError(
        `jwtBearer: option "${option}" must be a PEM public key; received ${received}`,
        {
          cause,
        },
      );
    }
    return { key, allowed: ofKeyObject(key, option) };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return importJwk(value, option);
  }
  const expected = 'must be a PEM string, a JWK, a KeyObject or a CryptoKey';
  return optionError('jwtBearer', option, expected, describeValue(value));
}
