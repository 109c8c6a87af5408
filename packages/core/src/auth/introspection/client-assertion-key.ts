import type { JsonWebKey, KeyObject, webcrypto } from 'node:crypto';
import { describeValue, optionError } from '../../options/check-options';
import { requireNodeCrypto } from '../../common/node-builtin';

/** The key that signs `private_key_jwt` client assertions, and how. */
export interface ClientAssertionKey {
  readonly key: KeyObject;
  readonly alg: string;
  /** The JWK's `kid`, sent in the assertion's header so the server picks the right key. */
  readonly kid: string | undefined;
}

// The one algorithm that fits each key type; a JWK's own `alg` is used when it names one of these.
const EC_ALGORITHMS: Readonly<Record<string, string>> = {
  'P-256': 'ES256',
  prime256v1: 'ES256',
  'P-384': 'ES384',
  secp384r1: 'ES384',
  'P-521': 'ES512',
  secp521r1: 'ES512',
};
const RSA_ALGORITHMS = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']);

function algorithmOf(key: KeyObject, named: unknown): string | undefined {
  const type = key.asymmetricKeyType;
  if (type === 'rsa') {
    return typeof named === 'string' && RSA_ALGORITHMS.has(named) ? named : 'RS256';
  }
  if (type === 'ec') return EC_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
  if (type === 'ed25519') return 'EdDSA';
  return undefined;
}

/**
 * Imports the `privateKey` option once, at start-up: a PEM, a private JWK or a private `KeyObject`
 * of a type a client assertion can be signed with.
 *
 * @param value - the `privateKey` option
 * @returns the key, its algorithm and its `kid`
 * @throws TypeError naming `privateKey`: not a private key, or of an unsupported type; on a
 *   runtime without `node:crypto` (Workers without `nodejs_compat`)
 * @example
 * ```ts
 * const { alg } = clientAssertionKey(privatePem); // 'ES256' for a P-256 key
 * ```
 */
export function clientAssertionKey(
  value: string | webcrypto.JsonWebKey | KeyObject,
): ClientAssertionKey {
  // Loaded here, at start-up, and only for private_key_jwt: the fetch entry runs without Node built-ins.
  const { createPrivateKey, KeyObject } = requireNodeCrypto(
    'tokenIntrospection: option "privateKey"',
    'clientSecret (client_secret_basic or client_secret_post)',
  );
  let key: KeyObject | undefined;
  try {
    if (value instanceof KeyObject) key = value;
    else if (typeof value === 'string') key = createPrivateKey(value);
    else if (typeof value === 'object' && value !== null) {
      key = createPrivateKey({ key: value as JsonWebKey, format: 'jwk' });
    }
  } catch {
    // Reported below, without the key's content.
  }
  const jwk = typeof value === 'object' && !(value instanceof KeyObject) ? value : undefined;
  const alg = key?.type === 'private' ? algorithmOf(key, jwk?.alg) : undefined;
  if (key === undefined || alg === undefined) {
    return optionError(
      'tokenIntrospection',
      'privateKey',
      'must be a private RSA, EC (P-256, P-384, P-521) or Ed25519 key: PEM, JWK or KeyObject',
      describeValue(value),
    );
  }
  const kid = (jwk as { kid?: unknown } | undefined)?.kid;
  return { key, alg, kid: typeof kid === 'string' ? kid : undefined };
}
