// Baseline: Koa 3 + @koa/bodyparser, answering the plant back. No auth, no validation, no store.
import Koa from 'koa3';
import { serveKoaEcho } from './shared/koa-echo.mjs';

serveKoaEcho(Koa);
