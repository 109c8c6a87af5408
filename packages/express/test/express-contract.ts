import { describeHttpContract } from '@plantstore/http-suite';
import {
  EXPRESS_MAJORS,
  EXPRESS_MOUNTINGS,
  type ExpressMajor,
  expressTarget,
  hostRecord,
} from '@plantstore/http-suite/hosts';
import { describe, expect, it } from 'vitest';
import { plantRouter, protectedResourceMetadata } from '../src/index';

/**
 * Runs the whole HTTP contract suite against one Express major, once per mounting, each time in a
 * real app with a host catch-all and a host error handler behind the route, and the RFC 9728
 * metadata at the root when the suite turns it on.
 */
export function describeExpressContract(major: ExpressMajor): void {
  for (const mounting of EXPRESS_MOUNTINGS) {
    const name = `${major}, mounted ${mounting.name}`;
    describe(name, () => {
      const record = hostRecord();
      describeHttpContract(
        name,
        expressTarget(EXPRESS_MAJORS[major], plantRouter, {
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
