import type { KeyObject } from 'node:crypto';
import { importSPKI, type CryptoKey, type JWTVerifyGetKey } from 'jose';
import { isCryptoKey, type VerificationKey } from './verification-key';

const HMAC_HASH: Readonly<Record<string, string>> = {
  HS256: 'SHA-256',
  HS384: 'SHA-384',
  HS512: 'SHA-512',
};

/**
 * Turns a secret or a public key into jose's key function, importing one WebCrypto key per algorithm
 * on first use and keeping it: handed raw bytes or a `KeyObject`, jose would import the key again on
 * every verification.
 *
 * @param key - the key `jwtBearer` was given
 * @returns a key resolver for `jwtVerify`
 */
export function staticKeyResolver(key: VerificationKey['key']): JWTVerifyGetKey {
  // A CryptoKey is used as it is; a secret or a KeyObject (the only other kinds) is imported.
  if (isCryptoKey(key)) return () => key;
  const imported = new Map<string, Promise<CryptoKey>>();
  return ({ alg }) => {
    let cryptoKey = imported.get(alg);
    if (cryptoKey === undefined) {
      cryptoKey = importFor(key, alg);
      imported.set(alg, cryptoKey);
    }
    return cryptoKey;
  };
}

function importFor(key: Uint8Array | KeyObject, alg: string): Promise<CryptoKey> {
  if (!(key instanceof Uint8Array)) {
    return importSPKI(key.export({ type: 'spki', format: 'pem' }).toString(), alg);
  }
  const hash = HMAC_HASH[alg] ?? 'SHA-256';
  return crypto.subtle.importKey('raw', key, { name: 'HMAC', hash }, false, ['verify']);
}
