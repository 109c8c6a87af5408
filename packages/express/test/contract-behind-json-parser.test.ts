import { describeHttpContract, exchangeSkips, listen } from '@plantstore/http-suite';
import {
  EXPRESS_MAJORS,
  EXPRESS_MOUNTINGS,
  expressHostApp,
  hostRecord,
  metadataFor,
} from '@plantstore/http-suite/hosts';
import { beforeEach, describe, expect, it } from 'vitest';
import { plantRouter, protectedResourceMetadata } from '../src/index';

/**
 * Cases that `express.json()` decides before the route runs, with or without `keepRawBody`: the
 * parser reads the whole body, then refuses what it cannot parse, through the host's error handler.
 * What the host gets instead is pinned in `host-body-parsers.test.ts` and docs/express.md.
 */
const DECIDED_BY_JSON_PARSER: Readonly<Record<string, string>> = {
  'refuses a body that is not JSON': "the parser's own 400 (entity.parse.failed) goes to the host",
  'answers an unauthenticated request without reading its body':
    'the parser reads the body (over its limit, drains it to the end) before the route sees the token',
  'answers 408 when the body does not arrive within the read time-out':
    'the parser waits for the body without a time-out',
  'answers 415 for another media type, another charset, none, or a compressed body':
    'the parser refuses charset=latin1 with its own 415 and fails to inflate the false gzip body with its own 400',
  ...exchangeSkips(
    ['not JSON', 'invalid UTF-8', 'latin1', 'gzip', 'huge', 'linger'],
    'the parser reads the body first, and refuses these with its own 400 or 415 through the host',
  ),
};

// Behind express.json() without keepRawBody the route creates nothing (a parsed id cannot be proven
// exact); host-body-parsers.test.ts pins those answers.
const setups = [{ helper: true, skipped: DECIDED_BY_JSON_PARSER, at: EXPRESS_MOUNTINGS }] as const;

for (const [name, express] of Object.entries(EXPRESS_MAJORS)) {
  for (const { helper, skipped, at } of setups) {
    for (const mounting of at) {
      const parser = 'express.json({ verify: route.keepRawBody })';
      const how = `${name}, mounted ${mounting.name} behind ${parser}`;
      describe(how, () => {
        beforeEach((context) => {
          const reason = skipped[context.task.name];
          if (reason !== undefined) context.skip(`decided before the route: ${reason}`);
        });
        const record = hostRecord();
        describeHttpContract(how, {
          passesOn: true,
          start(options, setup) {
            const route = plantRouter(options);
            const app = expressHostApp(express, route, {
              hooks: record.hooks,
              metadata: metadataFor(route.service, protectedResourceMetadata),
              mounting: {
                ...mounting,
                mount(express_, host, route_) {
                  host.use(express_.json(helper ? { verify: route.keepRawBody } : {}));
                  mounting.mount(express_, host, route_);
                },
              },
            });
            return listen(app, mounting.path, setup?.tls);
          },
        });
        it('never reached the host error handler for an answer of the route', () => {
          expect(record.errors).toEqual([]);
        });
      });
    }
  }
}
