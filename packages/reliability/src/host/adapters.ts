import type { RequestListener } from 'node:http';
import type { PlantService } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import {
  EXPRESS_MAJORS,
  expressHostApp,
  type HostHooks,
  KOA_AT_ROOT,
  KOA_MAJORS,
  koaHostApp,
  nodeListener,
} from '@plantstore/http-suite/hosts';
import { plantRoutes } from '@plantstore/koa';

/** The adapters every scenario, hostile run and soak runs against, each on its current major. */
export const ADAPTERS = ['Express 5', 'Koa 3'] as const;

/** One of {@link ADAPTERS}. */
export type Adapter = (typeof ADAPTERS)[number];

/**
 * The host application a real user would write, from the test kit: its own `GET /health`, the plant
 * route mounted at the root, a catch-all and error handling of its own, reported to `hooks` (so a
 * scenario can tell whether anything ever reached the host instead of being answered by the route).
 *
 * @param adapter - Express 5 with `plantRouter`, or Koa 3 with `plantRoutes`
 * @param service - the route's service
 * @param hooks - told of every error the host framework itself sees, and of requests passed on
 * @returns the listener for `http.createServer`
 */
export function adapterApp(
  adapter: Adapter,
  service: PlantService,
  hooks: HostHooks,
): RequestListener {
  if (adapter === 'Express 5') {
    return expressHostApp(EXPRESS_MAJORS['Express 5'], plantRouter(service), { hooks });
  }
  const { app } = koaHostApp(
    KOA_MAJORS['Koa 3'],
    (host) => KOA_AT_ROOT.mount(host, () => plantRoutes(service)),
    hooks,
  );
  return nodeListener(app);
}
