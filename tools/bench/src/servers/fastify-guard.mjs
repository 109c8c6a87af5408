// Ours: a guarded GET on Fastify 5, the `guard` onRequest hook of @plantstore/fastify.
import { memoryStore } from '@plantstore/core';
import { guard, plantPlugin } from '@plantstore/fastify';
import Fastify from 'fastify';
import { HOST } from '../config.mjs';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { announce } from './shared/serve.mjs';

const app = Fastify();
const plugin = plantPlugin({ store: memoryStore(), auth: benchAuth(), logger: false });
await app.register(plugin);
app.get('/things', { onRequest: guard(plugin.service) }, async (request) => ({
  subject: request.auth.subject,
}));
await app.listen({ port: 0, host: HOST });
announce(app.server.address().port, () => app.close());
