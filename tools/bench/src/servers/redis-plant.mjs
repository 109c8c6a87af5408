// Ours on Redis: plantRouter on Express 5 with redisStore on a node-redis client.
import { createServer } from 'node:http';
import { plantRouter } from '@plantstore/express';
import { redisStore } from '@plantstore/redis';
import express from 'express5';
import { benchAuth, benchTenant } from './shared/plantstore-auth.mjs';
import { openRedis } from './shared/redis.mjs';
import { serve, warmUpIfAsked } from './shared/serve.mjs';

const redis = await openRedis();
const plants = plantRouter({
  store: redisStore({ client: redis.client, prefix: redis.prefix }),
  auth: benchAuth(),
  ...benchTenant(),
});
const app = express();
app.use(plants);
await warmUpIfAsked(plants.service);
serve(createServer(app), async () => {
  await plants.service.close();
  await redis.close();
});
