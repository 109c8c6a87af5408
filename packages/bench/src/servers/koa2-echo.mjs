// Baseline: Koa 2 + @koa/bodyparser, answering the plant back. No auth, no validation, no store.
import { createServer } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa2';
import { serve } from './shared/serve.mjs';

const app = new Koa();
app.use(bodyParser());
app.use((ctx) => {
  if (ctx.method !== 'POST' || ctx.path !== '/plants') return;
  const { name, tag } = ctx.request.body;
  ctx.body = { name, tag };
});
serve(createServer(app.callback()));
