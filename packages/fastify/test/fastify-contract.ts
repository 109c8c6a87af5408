import { describeHttpContract } from '@plantstore/http-suite';
import {
  FASTIFY_MAJORS,
  FASTIFY_MOUNTINGS,
  type FastifyMajor,
  fastifyTarget,
  hostRecord,
} from '@plantstore/http-suite/hosts';
import { describe, expect, it } from 'vitest';
import { plantPlugin, protectedResourceMetadata } from '../src/index';

/**
 * Runs the whole HTTP contract suite against one Fastify major, once per way of registering the
 * plugin, each time in a real app with routes of its own beside it and a host error handler, and the
 * RFC 9728 metadata plugin at the root when the suite turns it on.
 *
 * @param major - `'Fastify 4'` or `'Fastify 5'`
 */
export function describeFastifyContract(major: FastifyMajor): void {
  for (const mounting of FASTIFY_MOUNTINGS) {
    const name = `${major}, registered ${mounting.name}`;
    describe(name, () => {
      const record = hostRecord();
      describeHttpContract(
        name,
        fastifyTarget(FASTIFY_MAJORS[major], plantPlugin, {
          mounting,
          hooks: record.hooks,
          protectedResourceMetadata,
        }),
      );

      it('never reached the host error handler for any answer of the suite', () => {
        expect(record.errors).toEqual([]);
      });
    });
  }
}
