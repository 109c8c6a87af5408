// The route as a Hono user writes it, for the bundle-size comparison (tools/bundle-sizes/bundle-sizes.mjs):
// Hono 4's router, `@hono/valibot-validator` on the JSON body, a Map. The token check is the
// caller's: `hono/jwt` (a secret) or `hono/jwk` (a JWKS), so each Worker carries only its own.
import { Hono, type Env, type MiddlewareHandler } from 'hono';
import { vValidator } from '@hono/valibot-validator';
import * as v from 'valibot';

const PlantSchema = v.object({
  id: v.pipe(v.number(), v.safeInteger()),
  name: v.string(),
  tag: v.optional(v.string()),
});

/**
 * The app: `POST /api/plants` behind the token check given.
 *
 * @param auth - Hono's `jwt(…)` or `jwk(…)` middleware
 * @returns the app, whose `fetch` is the Worker's
 */
export function honoRoute<E extends Env>(auth: MiddlewareHandler<E>): Hono<E> {
  const plants = new Map<number, { name: string; tag: string | undefined }>();
  const app = new Hono<E>();
  app.post(
    '/api/plants',
    auth,
    vValidator('json', PlantSchema, (result, c) =>
      result.success ? undefined : c.json({ error: 400, message: 'Invalid plant' }, 400),
    ),
    (c) => {
      const { id, name, tag } = c.req.valid('json');
      const existing = plants.get(id);
      if (existing === undefined) plants.set(id, { name, tag });
      else if (existing.name !== name || existing.tag !== tag) {
        return c.json({ error: 409, message: 'Conflict' }, 409);
      }
      return c.json({ name, tag });
    },
  );
  return app;
}
