// Hono's equivalent of jwks-worker.ts, for the bundle-size comparison: `hono/jwk` with the
// provider's JWKS URL, `iss` and `aud` checked. (It fetches the JWKS on every request: it keeps no
// copy, so it has no cache, back-off or outage answer to weigh.)
import type { MiddlewareHandler } from 'hono';
import { jwk } from 'hono/jwk';
import { honoRoute } from './hono-route';

interface Env {
  readonly JWKS_URI: string;
  readonly ISSUER: string;
  readonly AUDIENCE: string;
}

const auth: MiddlewareHandler<{ Bindings: Env }> = (c, next) =>
  jwk({
    jwks_uri: c.env.JWKS_URI,
    alg: ['RS256', 'ES256'],
    verification: { iss: c.env.ISSUER, aud: c.env.AUDIENCE },
  })(c, next);

export default honoRoute(auth);
