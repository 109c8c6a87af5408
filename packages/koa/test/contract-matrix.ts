import { describeHttpContract, exchangeSkips } from '@plantstore/http-suite';
import {
  hostRecord,
  KOA_MAJORS,
  KOA_MOUNTINGS,
  type KoaMajor,
  koaTarget,
} from '@plantstore/http-suite/hosts';
import { beforeEach, describe, expect, it } from 'vitest';
import { plantRoutes, protectedResourceMetadata } from '../src/index';

/**
 * Cases of the suite that no adapter can pass when the host's body parser runs before the route:
 * the parser reads (and judges) the body before the route sees the request. The route's own
 * behaviour in those cases is covered without a parser; what the host gets instead is pinned in
 * `body-parsers.test.ts` and documented in docs/koa.md.
 */
export const DECIDED_BY_HOST_PARSER: Readonly<Record<string, string>> = {
  'refuses a body that is not JSON': 'the parser throws its own 400 first',
  'refuses duplicate keys, __proto__ and constructor keys, and nesting deeper than 64':
    'the parser throws its own 400 for __proto__ first',
  'refuses lone surrogates, U+0000 and invalid UTF-8':
    'the parser decodes invalid UTF-8 to U+FFFD first, which the route refuses as body_decoded_by_host',
  'answers an unauthenticated request without reading its body':
    'the parser reads the body before the route can authenticate',
  'answers 408 when the body does not arrive within the read time-out':
    'the parser waits for the body without a time-out',
  'answers 415 for another media type, another charset, none, or a compressed body':
    'the parser inflates a gzip body (and throws on a broken one) first',
  ...exchangeSkips(
    ['not JSON', 'proto key', 'invalid UTF-8', 'gzip', 'huge', 'linger'],
    'the parser reads the body first: it throws its own 400, inflates gzip, decodes bad UTF-8 to U+FFFD (refused as body_decoded_by_host)',
  ),
  ...exchangeSkips(['metadata body'], 'the parser refuses the 64 MiB body with its own 413 first'),
};

/**
 * Runs the HTTP contract suite, unchanged, against real apps of one Koa major, mounted every way
 * the docs describe, and checks that the host's `app.on('error')` never fired for an answer.
 *
 * @param major - `'Koa 2'` or `'Koa 3'`
 */
export function describeKoaContract(major: KoaMajor): void {
  for (const mounting of KOA_MOUNTINGS) {
    const name = `${major}, ${mounting.name}`;
    describe(name, () => {
      if (mounting.parserFirst === true) {
        beforeEach((context) => {
          const reason = DECIDED_BY_HOST_PARSER[context.task.name];
          if (reason !== undefined) context.skip(`host body parser first: ${reason}`);
        });
      }
      const record = hostRecord();
      describeHttpContract(
        name,
        koaTarget(
          KOA_MAJORS[major],
          plantRoutes,
          mounting,
          record.hooks,
          protectedResourceMetadata,
        ),
      );

      it('let the host observe every answer and never emitted app.on("error") for one', () => {
        expect(record.errors).toEqual([]);
        const statuses = new Set(record.observed.map((answer) => answer.status));
        const expected = [200, 400, 401, 403, 409, 413, 500, 503];
        for (const status of mounting.parserFirst === true ? expected : [...expected, 408, 415]) {
          expect(statuses).toContain(status);
        }
      });
    });
  }
}
