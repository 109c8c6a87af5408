import { base64url } from './base64';
import { nodeBuiltin } from './node-builtin';

// Node's hashes are synchronous and cost no promise: used wherever the runtime has node:crypto
// (Node.js, Bun, Deno, workerd with nodejs_compat); WebCrypto everywhere else.
const nodeCrypto = /* @__PURE__ */ nodeBuiltin('node:crypto');
const encoder = new TextEncoder();

/**
 * The SHA-256 of a text (its UTF-8 bytes) or of bytes, in base64url without padding: what DPoP's
 * `ath` and a JWK thumbprint are made of.
 *
 * @param data - the text or bytes
 * @returns the digest, 43 characters
 * @example
 * ```ts
 * await sha256Base64url('abc'); // 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0'
 * ```
 */
export function sha256Base64url(data: string | Uint8Array): Promise<string> {
  if (nodeCrypto !== undefined) {
    return Promise.resolve(nodeCrypto.createHash('sha256').update(data).digest('base64url'));
  }
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  return crypto.subtle.digest('SHA-256', bytes).then((digest) => base64url(new Uint8Array(digest)));
}

/**
 * The HMAC-SHA-256 of a text under a key, in base64url without padding.
 *
 * @param key - the secret
 * @param text - the message (its UTF-8 bytes)
 * @returns the MAC, 43 characters
 * @example
 * ```ts
 * await hmacSha256Base64url(secret, 'dpop-nonce:5'); // the same on every instance given `secret`
 * ```
 */
export async function hmacSha256Base64url(key: Uint8Array, text: string): Promise<string> {
  if (nodeCrypto !== undefined) {
    return nodeCrypto.createHmac('sha256', key).update(text).digest('base64url');
  }
  const hmac = { name: 'HMAC', hash: 'SHA-256' };
  const imported = await crypto.subtle.importKey('raw', key, hmac, false, ['sign']);
  return base64url(
    new Uint8Array(await crypto.subtle.sign('HMAC', imported, encoder.encode(text))),
  );
}
