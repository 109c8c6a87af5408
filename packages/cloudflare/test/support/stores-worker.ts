import { bundleWorker } from './bundle-worker';
import { type RunningWorker, startWorker } from './start-worker';

/**
 * Starts the stores' Worker on workerd, without `nodejs_compat`: a local D1 database bound as `DB`
 * (SQLite in memory, as miniflare keeps it when no folder is given) and the replay Durable Object
 * bound as `REPLAY`, SQLite-backed as `new_sqlite_classes` makes it on Cloudflare.
 *
 * @returns the running Worker; reach its bindings with `miniflare.getD1Database('DB')` and
 *   `miniflare.getDurableObjectNamespace('REPLAY')`
 */
export async function startStoresWorker(): Promise<RunningWorker> {
  return startWorker({
    script: await bundleWorker('stores-worker.ts'),
    nodejsCompat: false,
    more: {
      d1Databases: ['DB'],
      durableObjects: { REPLAY: { className: 'ReplayDurableObject', useSQLite: true } },
    },
  });
}
