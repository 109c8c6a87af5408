// Plantstore's auth for the job: HS256 with iss and aud checked. The verified-token cache is on
// (the default) unless BENCH_TOKEN_CACHE=off, which the `node-plant-nocache` setup sets.
import process from 'node:process';
import { jwtBearer } from '@plantstore/core';
import { AUDIENCE, ISSUER, SECRET } from '../../config.mjs';

/** @returns {import('@plantstore/core').Authenticator} */
export function benchAuth() {
  return jwtBearer({
    secret: SECRET,
    issuer: ISSUER,
    audience: AUDIENCE,
    algorithms: ['HS256'],
    ...(process.env.BENCH_TOKEN_CACHE === 'off' ? { cache: false } : {}),
  });
}
