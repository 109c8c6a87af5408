// What every server and the runner agree on: the key, the claims checked, the address.
import { SignJWT } from 'jose';

/** The HS256 secret every server verifies with (32 bytes or more, as jwtBearer requires). */
export const SECRET = 'plantstore-bench-secret-0123456789abcdef';
/** The `iss` every server requires. */
export const ISSUER = 'https://id.bench.test/';
/** The `aud` every server requires. */
export const AUDIENCE = 'https://plants.bench.test';
/** The origin the DPoP server is told it is served at: every proof's `htu` starts with it. */
export const PUBLIC_URL = 'https://plants.bench.test';
/** Servers listen here only. */
export const HOST = '127.0.0.1';
/** Connections in each `pg` or mysql2 Pool, ours and the hand-written one alike. */
export const POOL_SIZE = 10;
/** Where the PostgreSQL setups connect when `DATABASE_URL` is not set. */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** Where the MySQL setups connect when `MYSQL_URL` is not set. */
export const DEFAULT_MYSQL_URL = 'mysql://root@127.0.0.1:3306/test';

/**
 * Signs a bearer token as a client would hold it: HS256, with `iss`, `aud`, `sub`, `iat`, `exp`;
 * `jkt` binds it to a DPoP key (`cnf.jkt`).
 *
 * @param {{ issuer?: string, audience?: string, subject?: string, jkt?: string }} [claims]
 * @returns {Promise<string>}
 */
export function signToken({
  issuer = ISSUER,
  audience = AUDIENCE,
  subject = 'bench-client',
  jkt,
} = {}) {
  return new SignJWT({ scope: 'plants:write', ...(jkt === undefined ? {} : { cnf: { jkt } }) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(SECRET));
}

/**
 * The opaque tokens of the introspection setup, as its identity provider would issue them (43
 * characters, as oidc-provider's): one valid, one its endpoint says is of another issuer, one for
 * another audience, so the answers can be checked as the JWT setups' are.
 */
export const OPAQUE_TOKENS = {
  valid: 'bench-opaque-valid-0123456789abcdefghijklmno',
  otherIssuer: 'bench-opaque-issuer-0123456789abcdefghijklm',
  otherAudience: 'bench-opaque-audience-0123456789abcdefghijk',
};
