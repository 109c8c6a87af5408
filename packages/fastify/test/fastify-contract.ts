import { describeHttpContract } from '@plantstore/http-suite';
import { describe, expect, it } from 'vitest';
import { plantPlugin, protectedResourceMetadata } from '../src/index';
import { countingErrorHandler, type FastifyFactory, hostCatchAll, mountings, start } from './hosts';

/**
 * Runs the whole HTTP contract suite against one Fastify major, once per way of registering the
 * plugin, each time in a real app with routes of its own beside it and a host error handler, and the
 * RFC 9728 metadata plugin at the root when the suite turns it on.
 *
 * @param name - e.g. `'Fastify 5'`
 * @param fastify - that major's factory
 */
export function describeFastifyContract(name: string, fastify: FastifyFactory): void {
  for (const mounting of mountings) {
    describe(`${name}, registered ${mounting.name}`, () => {
      const hostErrors: unknown[] = [];

      describeHttpContract(`${name}, registered ${mounting.name}`, {
        passesOn: true,
        start(options) {
          const app = fastify();
          hostCatchAll(app);
          countingErrorHandler(app, hostErrors);
          const plugin = plantPlugin(options);
          // At the root, as RFC 9728 wants, whatever prefix the route is registered under.
          if (plugin.service.resourceMetadata !== undefined) {
            void app.register(protectedResourceMetadata(plugin.service));
          }
          mounting.mount(app, plugin);
          return start(app, mounting.path);
        },
      });

      it('never reached the host error handler for any answer of the suite', () => {
        expect(hostErrors).toEqual([]);
      });
    });
  }
}
