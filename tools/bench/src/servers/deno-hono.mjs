// Baseline on Deno: Hono 4 + hono/jwt + @hono/valibot-validator (shared/hono-app.mjs).
import { app } from './shared/hono-app.mjs';
import { serveFetch } from './shared/fetch-serve.mjs';

serveFetch(app.fetch);
