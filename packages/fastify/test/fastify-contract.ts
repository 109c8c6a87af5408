import { describeHttpContract } from '@plantstore/http-suite';
import { describe, expect, it } from 'vitest';
import { plantPlugin } from '../src/index';
import { countingErrorHandler, type FastifyFactory, hostCatchAll, mountings, start } from './hosts';

/**
 * Runs the whole HTTP contract suite against one Fastify major, once per way of registering the
 * plugin, each time in a real app with routes of its own beside it and a host error handler.
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
          mounting.mount(app, plantPlugin(options));
          return start(app, mounting.path);
        },
      });

      it('never reached the host error handler for any answer of the suite', () => {
        expect(hostErrors).toEqual([]);
      });
    });
  }
}
