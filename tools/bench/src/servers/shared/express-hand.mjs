// The Express 5 app of the hand-written baselines on a database server (MariaDB, Redis): written as
// Express apps often are, one middleware per step, each answering or passing on; only the storing
// differs between them.
import { bearerToken, errors, isPlant, verifyToken } from './hand-written.mjs';

/**
 * `POST /plants` with express.json(), jose and type checks, storing through `save`.
 *
 * @param {typeof import('express5')} express
 * @param {(plant: { id: unknown, name: string, tag?: string }, subject: string | undefined) => Promise<boolean>} save
 *   resolves false on a conflict
 */
export function handWrittenApp(express, save) {
  async function authenticate(req, res, next) {
    const token = bearerToken(req.get('authorization'));
    res.locals.claims = token === undefined ? undefined : await verifyToken(token);
    if (res.locals.claims !== undefined) next();
    else res.status(401).set('www-authenticate', 'Bearer').json(errors.unauthorized);
  }

  function validate(req, res, next) {
    if (isPlant(req.body)) next();
    else res.status(400).json(errors.invalid);
  }

  async function store(req, res, next) {
    try {
      const saved = await save(req.body, res.locals.claims.sub);
      if (saved) res.json({ name: req.body.name, tag: req.body.tag });
      else res.status(409).json(errors.conflict);
    } catch (error) {
      next(error);
    }
  }

  const app = express();
  app.post('/plants', express.json(), authenticate, validate, store);
  return app;
}
