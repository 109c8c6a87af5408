// Baseline: the same guarded GET on Express 5 with express-oauth2-jwt-bearer's `auth()`.
import { createServer } from 'node:http';
import { auth } from 'express-oauth2-jwt-bearer';
import express from 'express5';
import { AUDIENCE, ISSUER, SECRET } from '../config.mjs';
import { serve } from './shared/serve.mjs';

const app = express();
const checkJwt = auth({
  issuer: ISSUER,
  audience: AUDIENCE,
  secret: SECRET,
  tokenSigningAlg: 'HS256',
});
app.get('/things', checkJwt, (req, res) => {
  res.json({ subject: req.auth.payload.sub });
});
serve(createServer(app));
