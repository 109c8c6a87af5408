// Baseline: the same job hand-written on Koa 3: @koa/router, @koa/bodyparser, jose, type checks, a Map.
import { createServer } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import { Router } from '@koa/router';
import Koa from 'koa3';
import { bearerToken, errors, isPlant, savePlant, verifyToken } from './shared/hand-written.mjs';
import { serve } from './shared/serve.mjs';

const plants = new Map();
const router = new Router();
router.post('/plants', async (ctx) => {
  const token = bearerToken(ctx.get('authorization') || undefined);
  const claims = token === undefined ? undefined : await verifyToken(token);
  if (claims === undefined) {
    ctx.status = 401;
    ctx.set('www-authenticate', 'Bearer');
    ctx.body = errors.unauthorized;
    return;
  }
  const plant = ctx.request.body;
  if (!isPlant(plant)) {
    ctx.status = 400;
    ctx.body = errors.invalid;
    return;
  }
  if (!savePlant(plants, plant)) {
    ctx.status = 409;
    ctx.body = errors.conflict;
    return;
  }
  ctx.body = { name: plant.name, tag: plant.tag };
});

const app = new Koa();
app.use(bodyParser());
app.use(router.routes());
app.use(router.allowedMethods());
serve(createServer(app.callback()));
