import type { SilentStoreOptions } from './lifecycle-cases';
import type { SilentServer } from './silent-server';

/**
 * The lifecycle cases' silent store for a store on a network client: `build` on a client that `open`
 * points at the kit's silent server (it accepts connections and never answers), the client released
 * by `end` after the case. Each store package writes only how its client opens and ends.
 *
 * @param open - a client of the silent server's host and port, with a short connect bound
 * @param end - releases the client
 * @param build - the store on that client, with a short `readyTimeout`
 * @returns the conformance suites' `silent` option
 * @example
 * ```ts
 * silent: silentStoreOn(
 *   ({ host, port }) => new Redis({ host, port, maxRetriesPerRequest: 1 }),
 *   (client) => client.disconnect(),
 *   (client) => redisStore({ client, readyTimeout: 300 }),
 * ),
 * ```
 */
export function silentStoreOn<C, S extends object>(
  open: (server: SilentServer) => C,
  end: (client: C) => unknown,
  build: (client: C) => S,
): SilentStoreOptions<S> {
  const clients = new Map<S, C>();
  return {
    create: (server) => {
      const client = open(server);
      const store = build(client);
      clients.set(store, client);
      return store;
    },
    destroy: async (store) => {
      const client = clients.get(store);
      clients.delete(store);
      if (client !== undefined) await end(client);
    },
  };
}
