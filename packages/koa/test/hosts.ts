import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { PlantServiceOptions } from '@plantstore/core';
import { type ContractTarget, listen, type Reply } from '@plantstore/http-suite';
import type Koa from 'koa';

/** The Koa class of either major (both are typed by `@types/koa`). */
export type KoaClass = typeof Koa;

/** Mounts the route into a host app and says where, e.g. `'/api'` (`''` at the root). */
export type Mount = (app: Koa, options: PlantServiceOptions) => string;

/** What a host app saw: `app.on('error')` events and every answer its upstream middleware observed. */
export interface HostRecord {
  readonly errors: unknown[];
  readonly observed: { readonly status: number; readonly body: unknown; readonly type: string }[];
}

/**
 * A `node:http` listener for a Koa app (Koa's callback returns a promise it never rejects).
 *
 * @param app - the app
 * @returns the listener
 */
export function nodeListener(app: Koa): (req: IncomingMessage, res: ServerResponse) => void {
  const callback = app.callback();
  return (req, res) => void callback(req, res);
}

/** An empty record. */
export const hostRecord = (): HostRecord => ({ errors: [], observed: [] });

/**
 * Builds a real Koa app the way a host would: an upstream middleware that observes every answer and
 * decorates it (`x-observed`), the route mounted by `mount`, then a catch-all answering
 * `host:<METHOD> <path>` as the contract suite expects of a host that passes requests on.
 *
 * @param KoaApp - `Koa2` or `Koa3`
 * @param mount - how the route is mounted
 * @param record - where `app.on('error')` and the observed answers are recorded
 * @returns the app
 */
export function koaApp(
  KoaApp: KoaClass,
  mount: Mount,
  options: PlantServiceOptions,
  record: HostRecord = hostRecord(),
): { app: Koa; mountPath: string } {
  const app = new KoaApp();
  app.on('error', (error: unknown) => void record.errors.push(error));
  app.use(async (ctx, next) => {
    await next();
    record.observed.push({ status: ctx.status, body: ctx.body, type: ctx.response.type });
    ctx.set('x-observed', String(ctx.status));
  });
  const mountPath = mount(app, options);
  app.use((ctx) => {
    ctx.status = 200;
    ctx.type = 'text/plain';
    ctx.body = `host:${ctx.method} ${ctx.path}`;
  });
  return { app, mountPath };
}

/**
 * A target of the HTTP contract suite: a Koa host on a disposable server on port 0. Exported so a
 * cross-adapter test (Express and Koa answer identically) can start the same Koa hosts.
 *
 * @param KoaApp - `Koa2` or `Koa3`
 * @param mount - how the route is mounted
 * @param record - where the host's observations go
 * @returns the target
 */
export function koaTarget(
  KoaApp: KoaClass,
  mount: Mount,
  record: HostRecord = hostRecord(),
): ContractTarget {
  return {
    passesOn: true,
    start(options) {
      const { app, mountPath } = koaApp(KoaApp, mount, options, record);
      return listen(createServer(nodeListener(app)), mountPath);
    },
  };
}

/**
 * What the contract names of a reply (status, its headers, body), to compare two adapters' replies.
 *
 * @param reply - a reply of `send`
 * @returns the comparable part
 */
export function contractView(reply: Reply): Record<string, unknown> {
  const named = ['content-type', 'cache-control', 'vary', 'www-authenticate', 'retry-after'];
  return {
    status: reply.status,
    headers: Object.fromEntries(named.map((name) => [name, reply.headers[name]])),
    body: reply.text,
  };
}
