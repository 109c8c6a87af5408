// Hono's equivalent of secret-worker.ts, for the bundle-size comparison: `hono/jwt` with an HS256
// secret, `iss` and `aud` checked.
import type { MiddlewareHandler } from 'hono';
import { jwt } from 'hono/jwt';
import { honoRoute } from './hono-route';

interface Env {
  readonly JWT_SECRET: string;
  readonly ISSUER: string;
  readonly AUDIENCE: string;
}

const auth: MiddlewareHandler<{ Bindings: Env }> = (c, next) =>
  jwt({
    secret: c.env.JWT_SECRET,
    alg: 'HS256',
    verification: { iss: c.env.ISSUER, aud: c.env.AUDIENCE },
  })(c, next);

export default honoRoute(auth);
