// Baseline: the same guarded GET on Fastify 5 with @fastify/jwt's `request.jwtVerify()`.
import fastifyJwt from '@fastify/jwt';
import Fastify from 'fastify';
import { AUDIENCE, HOST, ISSUER, SECRET } from '../config.mjs';
import { announce } from './shared/serve.mjs';

const app = Fastify();
await app.register(fastifyJwt, {
  secret: SECRET,
  verify: { allowedIss: ISSUER, allowedAud: AUDIENCE, algorithms: ['HS256'] },
});
app.get(
  '/things',
  {
    onRequest: async (request) => {
      await request.jwtVerify();
    },
  },
  async (request) => ({ subject: request.user.sub }),
);
await app.listen({ port: 0, host: HOST });
announce(app.server.address().port, () => app.close());
