// Baseline on Bun and Deno: what a Hono user writes for the job. Hono 4's router, `hono/jwt`
// (HS256, iss and aud checked, a full verification on every request: it keeps no cache),
// `@hono/valibot-validator` on the JSON body (`c.req.json()`: JSON.parse, ids as doubles), a Map.
import { Hono } from 'hono';
import { jwt } from 'hono/jwt';
import { vValidator } from '@hono/valibot-validator';
import * as v from 'valibot';
import { AUDIENCE, ISSUER, SECRET } from '../../config.mjs';
import { errors } from './hand-written.mjs';

const PlantSchema = v.object({
  id: v.pipe(v.number(), v.safeInteger()),
  name: v.string(),
  tag: v.optional(v.string()),
});
const plants = new Map();

/** The app: `POST /plants` only. */
export const app = new Hono();
app.post(
  '/plants',
  jwt({ secret: SECRET, alg: 'HS256', verification: { iss: ISSUER, aud: AUDIENCE } }),
  vValidator('json', PlantSchema, (result, c) =>
    result.success ? undefined : c.json(errors.invalid, 400),
  ),
  (c) => {
    const { id, name, tag } = c.req.valid('json');
    const existing = plants.get(id);
    if (existing === undefined) plants.set(id, { name, tag });
    else if (existing.name !== name || existing.tag !== tag) return c.json(errors.conflict, 409);
    return c.json({ name, tag });
  },
);
