import {
  describeMountedContract,
  exchangesDecided,
  PARSER_CAN_CHANGE,
} from '@plantstore/http-suite';
import { KOA_MAJORS, KOA_MOUNTINGS, type KoaMajor, koaTarget } from '@plantstore/http-suite/hosts';
import { expect } from 'vitest';
import { plantRoutes, protectedResourceMetadata } from '../src/index';

/**
 * Cases of the suite that no adapter can pass when the host's body parser runs before the route:
 * the parser reads (and judges) the body before the route sees the request. The route's own
 * behaviour in those cases is covered without a parser; what the host gets instead is pinned in
 * `body-parsers.test.ts` and documented in docs/hosts/koa.md.
 */
export const DECIDED_BY_HOST_PARSER: Readonly<Record<string, string>> = {
  'body.not-json': 'the parser throws its own 400 first',
  'body.hostile-keys': 'the parser throws its own 400 for __proto__ first',
  'body.bad-characters':
    'the parser decodes invalid UTF-8 to U+FFFD first, which the route refuses as body_decoded_by_host',
  'auth.before-body': 'the parser reads the body before the route can authenticate',
  'limits.read-timeout': 'the parser waits for the body without a time-out',
  'limits.media-type': 'the parser inflates a gzip body (and throws on a broken one) first',
  ...exchangesDecided(
    ['not JSON', 'proto key', 'invalid UTF-8', 'gzip'],
    'the parser reads the body first: it throws its own 400, inflates gzip, decodes bad UTF-8 to U+FFFD (refused as body_decoded_by_host)',
  ),
  'raw.huge': 'the parser reads the body before the route can authenticate',
  'raw.huge-415': 'the parser reads the body first',
  'raw.linger': 'the parser reads the body before the route can authenticate',
  'metadata.declared-body.get': 'the parser refuses the 64 MiB body with its own 413 first',
  'metadata.declared-body.post': 'the parser refuses the 64 MiB body with its own 413 first',
};

/** Every status the host's upstream middleware must observe in a run of the whole contract. */
const OBSERVED = [200, 400, 401, 403, 408, 409, 413, 415, 500, 503];

/**
 * Runs the HTTP contract against real apps of one Koa major, mounted every way the docs describe
 * (in full at `/api`, only what a mounting changes elsewhere, and what a body parser changes behind
 * each parser), and checks that the host's `app.on('error')` never fired for an answer and that its
 * upstream middleware observed every answer of a full run.
 *
 * @param major - `'Koa 2'` or `'Koa 3'`
 */
export function describeKoaContract(major: KoaMajor): void {
  describeMountedContract(
    `${major},`,
    KOA_MOUNTINGS,
    (mounting, hooks) =>
      koaTarget(KOA_MAJORS[major], plantRoutes, mounting, hooks, protectedResourceMetadata),
    {
      coverageOf: (mounting) =>
        mounting.parserFirst === true
          ? { only: PARSER_CAN_CHANGE, decides: DECIDED_BY_HOST_PARSER }
          : undefined,
      afterRun(record, _mounting, full) {
        const statuses = new Set(record.observed.map((answer) => answer.status));
        for (const status of full ? OBSERVED : [200]) expect(statuses).toContain(status);
      },
    },
  );
}
