import {
  describeMountedContract,
  exchangesDecided,
  listen,
  PARSER_CAN_CHANGE,
} from '@plantstore/http-suite';
import {
  EXPRESS_MAJORS,
  EXPRESS_MOUNTINGS,
  expressHostApp,
  metadataFor,
} from '@plantstore/http-suite/hosts';
import { plantRouter, protectedResourceMetadata } from '../src/index';

/**
 * Cases that `express.json()` decides before the route runs, with `keepRawBody`: the parser reads
 * the whole body, then refuses what it cannot parse, through the host's error handler. What the
 * host gets instead is pinned in `host-body-parsers.test.ts` and docs/hosts/express.md.
 */
const DECIDED_BY_JSON_PARSER: Readonly<Record<string, string>> = {
  'body.not-json': "the parser's own 400 (entity.parse.failed) goes to the host",
  'auth.before-body':
    'the parser reads the body (over its limit, drains it to the end) before the route sees the token',
  'limits.read-timeout': 'the parser waits for the body without a time-out',
  'limits.media-type':
    'the parser refuses charset=latin1 with its own 415 and fails to inflate the false gzip body with its own 400',
  ...exchangesDecided(
    ['not JSON', 'invalid UTF-8', 'latin1', 'gzip'],
    'the parser reads the body first, and refuses these with its own 400 or 415 through the host',
  ),
  'raw.huge': 'the parser reads the body before the route sees the token',
  'raw.huge-415': 'the parser reads the body first',
  'raw.linger': 'the parser reads the body before the route sees the token',
};

// Behind express.json() without keepRawBody the route creates nothing (a parsed id cannot be proven
// exact); host-body-parsers.test.ts pins those answers. With it, the first mounting runs what a
// parser can change; the others what a mounting can change.
const parser = 'express.json({ verify: route.keepRawBody })';
for (const [major, express] of Object.entries(EXPRESS_MAJORS)) {
  describeMountedContract(
    `${major}, behind ${parser}, mounted`,
    EXPRESS_MOUNTINGS,
    (mounting, hooks) => ({
      passesOn: true,
      start(options, setup) {
        const route = plantRouter(options);
        const app = expressHostApp(express, route, {
          hooks,
          metadata: metadataFor(route.service, protectedResourceMetadata),
          mounting: {
            ...mounting,
            mount(express_, host, route_) {
              host.use(express_.json({ verify: route.keepRawBody }));
              mounting.mount(express_, host, route_);
            },
          },
        });
        return listen(app, mounting.path, setup?.tls);
      },
    }),
    { coverage: { only: PARSER_CAN_CHANGE, decides: DECIDED_BY_JSON_PARSER } },
  );
}
