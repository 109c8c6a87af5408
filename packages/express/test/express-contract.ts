import { describeHttpContract } from '@plantstore/http-suite';
import { describe, expect, it } from 'vitest';
import { plantRouter } from '../src/index';
import { countingErrorHandler, type ExpressFactory, hostCatchAll, mountings, start } from './hosts';

/**
 * Runs the whole HTTP contract suite against one Express major, once per mounting, each time in a
 * real app with a host catch-all and a host error handler behind the route.
 */
export function describeExpressContract(name: string, express: ExpressFactory): void {
  for (const mounting of mountings) {
    describe(`${name}, mounted ${mounting.name}`, () => {
      const errors = countingErrorHandler();

      describeHttpContract(`${name}, mounted ${mounting.name}`, {
        passesOn: true,
        start(options) {
          const app = express();
          mounting.mount(express, app, plantRouter(options));
          app.use(hostCatchAll);
          app.use(errors.handler);
          return start(app, mounting.path);
        },
      });

      it('never reached the host error handler for any answer of the suite', () => {
        expect(errors.calls).toEqual([]);
      });
    });
  }
}
