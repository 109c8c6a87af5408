// Ours: plantPlugin on Fastify 5, registered on a bare app (its route reads the raw body itself),
// memoryStore. Compared with the Fastify baseline (fastify.mjs): same framework, the whole route ours.
import { memoryStore } from '@plantstore/core';
import { plantPlugin } from '@plantstore/fastify';
import Fastify from 'fastify';
import { HOST } from '../config.mjs';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { announce } from './shared/serve.mjs';

const app = Fastify();
await app.register(plantPlugin({ store: memoryStore(), auth: benchAuth() }));
await app.listen({ port: 0, host: HOST });
announce(app.server.address().port, () => app.close());
