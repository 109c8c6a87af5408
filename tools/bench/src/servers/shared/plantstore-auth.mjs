// Plantstore's auth for the job: HS256 with iss and aud checked. The verified-token cache is on
// (the default) unless BENCH_TOKEN_CACHE=off, which the `node-plant-nocache` setup sets;
// BENCH_MTLS=on turns on certificate-bound tokens (`node-plant-mtls`), whose requests here carry no
// certificate and an unbound token: what every plain request pays once mTLS is configured.
import process from 'node:process';
import { certificateBinding, jwtBearer } from '@plantstore/core';
import { AUDIENCE, ISSUER, SECRET } from '../../config.mjs';

/** @returns {import('@plantstore/core').Authenticator} */
export function benchAuth() {
  return jwtBearer({
    secret: SECRET,
    issuer: ISSUER,
    audience: AUDIENCE,
    algorithms: ['HS256'],
    ...(process.env.BENCH_TOKEN_CACHE === 'off' ? { cache: false } : {}),
    ...(process.env.BENCH_MTLS === 'on' ? { mtls: certificateBinding() } : {}),
  });
}

/**
 * The `tenant` option when BENCH_TENANT names a claim (the `tenants` script sets `sub`, which every
 * bench token has): ids per tenant, read and checked on every create. Off otherwise.
 *
 * @returns {{ tenant?: string }}
 */
export function benchTenant() {
  const claim = process.env.BENCH_TENANT;
  return claim === undefined || claim === '' ? {} : { tenant: claim };
}
