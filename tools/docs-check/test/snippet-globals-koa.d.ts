// Globals of the pages about Koa.
declare const app: import('koa');
declare const v2: import('@koa/router');
declare const listPlants: import('koa').Middleware;
