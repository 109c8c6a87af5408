// The Koa baseline of both majors: @koa/bodyparser, answering the plant back. No auth, no
// validation, no store.
import { createServer } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import { serve } from './serve.mjs';

/** Serves the echo on the Koa class it is given (Koa 2 or Koa 3). */
export function serveKoaEcho(Koa) {
  const app = new Koa();
  app.use(bodyParser());
  app.use((ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== '/plants') return;
    const { name, tag } = ctx.request.body;
    ctx.body = { name, tag };
  });
  serve(createServer(app.callback()));
}
