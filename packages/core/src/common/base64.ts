// Base64 without `Buffer`, which runtimes without Node built-ins (workerd without nodejs_compat,
// Vercel's Edge runtime) do not have; `atob` and `btoa` are on every runtime.

/**
 * Bytes in standard base64, padded (RFC 4648 §4).
 *
 * @param bytes - the bytes
 * @returns their encoding
 * @example
 * ```ts
 * base64(new Uint8Array([251, 255])); // '+/8='
 * ```
 */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Bytes in base64url without padding (RFC 7515 §2).
 *
 * @param bytes - the bytes
 * @returns their encoding
 * @example
 * ```ts
 * base64url(new Uint8Array([251, 255])); // '-_8'
 * ```
 */
export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/gu, '-').replace(/\//gu, '_').replace(/=+$/u, '');
}

/**
 * The bytes of a base64 text (the standard alphabet, padded or not).
 *
 * @param text - the encoding, checked by the caller's pattern
 * @returns the bytes
 * @throws DOMException when the text is not base64
 * @example
 * ```ts
 * base64Bytes('+/8='); // Uint8Array [251, 255]
 * ```
 */
export function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
