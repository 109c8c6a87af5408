// What a competent developer writes by hand for the same job, shared by the Express, Koa and
// node:http baselines: the key imported once (a CryptoKey, cheaper per call than handing jose the
// raw bytes, which it would re-import on every verify), the claims jose checks, plain type checks.
import { jwtVerify } from 'jose';
import { AUDIENCE, ISSUER, SECRET } from '../../config.mjs';

const key = await crypto.subtle.importKey(
  'raw',
  new TextEncoder().encode(SECRET),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['verify'],
);
const checks = { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] };
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The token of an `Authorization: Bearer …` header, or undefined.
 *
 * @param {string | undefined} header
 */
export function bearerToken(header) {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/**
 * Verifies the token (signature, `exp`, `nbf`, `iss`, `aud`) and resolves its claims, or undefined.
 *
 * @param {string} token
 */
export async function verifyToken(token) {
  try {
    return (await jwtVerify(token, key, checks)).payload;
  } catch {
    return undefined;
  }
}

/**
 * Whether a parsed body is a plant: an integer id, a string name, an optional string tag.
 *
 * @param {unknown} body
 * @returns {body is { id: number, name: string, tag?: string }}
 */
export function isPlant(body) {
  return (
    typeof body === 'object' &&
    body !== null &&
    Number.isSafeInteger(body.id) &&
    typeof body.name === 'string' &&
    (body.tag === undefined || typeof body.tag === 'string')
  );
}

/**
 * Inserts into the map unless the id exists; a replay of the same plant is fine, another is not.
 *
 * @param {Map<number, { name: string, tag?: string }>} plants
 * @param {{ id: number, name: string, tag?: string }} plant
 * @returns {boolean} false on a conflict
 */
export function savePlant(plants, { id, name, tag }) {
  const existing = plants.get(id);
  if (existing === undefined) {
    plants.set(id, { name, tag });
    return true;
  }
  return existing.name === name && existing.tag === tag;
}

/** The answer bodies of the hand-written servers. */
export const errors = {
  unauthorized: { error: 401, message: 'A valid bearer token is required.' },
  invalid: { error: 400, message: 'The body must be a plant: { id, name, tag? }.' },
  conflict: { error: 409, message: 'Another plant has this id.' },
};

/**
 * The checks an Express handler makes first: the bearer token, then the body. Answers 401 or 400
 * itself, and resolves to the token's claims when both passed (undefined once it answered).
 *
 * @param {import('express').Request} req
 * @param {import('express').Response} res
 */
export async function expressChecks(req, res) {
  const token = bearerToken(req.get('authorization'));
  const claims = token === undefined ? undefined : await verifyToken(token);
  if (claims === undefined) {
    res.status(401).set('www-authenticate', 'Bearer').json(errors.unauthorized);
    return undefined;
  }
  if (!isPlant(req.body)) {
    res.status(400).json(errors.invalid);
    return undefined;
  }
  return claims;
}
