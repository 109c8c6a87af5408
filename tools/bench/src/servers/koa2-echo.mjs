// Baseline: Koa 2 + @koa/bodyparser, answering the plant back. No auth, no validation, no store.
import Koa from 'koa2';
import { serveKoaEcho } from './shared/koa-echo.mjs';

serveKoaEcho(Koa);
