// Baseline: the same job the Fastify way: a JSON schema for the body (and one for the answer, so it
// is serialised by fast-json-stringify), @fastify/jwt in an onRequest hook, a Map.
import fastifyJwt from '@fastify/jwt';
import Fastify from 'fastify';
import { AUDIENCE, HOST, ISSUER, SECRET } from '../config.mjs';
import { errors, savePlant } from './shared/hand-written.mjs';
import { announce } from './shared/serve.mjs';

const plants = new Map();
const app = Fastify();
await app.register(fastifyJwt, {
  secret: SECRET,
  verify: { allowedIss: ISSUER, allowedAud: AUDIENCE, algorithms: ['HS256'] },
});
app.post(
  '/plants',
  {
    onRequest: async (request) => {
      await request.jwtVerify();
    },
    schema: {
      body: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string' } },
      },
      response: {
        200: { type: 'object', properties: { name: { type: 'string' }, tag: { type: 'string' } } },
      },
    },
  },
  async (request, reply) => {
    const plant = request.body;
    if (!savePlant(plants, plant)) return reply.code(409).send(errors.conflict);
    return { name: plant.name, tag: plant.tag };
  },
);
await app.listen({ port: 0, host: HOST });
announce(app.server.address().port, () => app.close());
