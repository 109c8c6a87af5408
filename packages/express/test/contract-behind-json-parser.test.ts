import { describeHttpContract } from '@plantstore/http-suite';
import { beforeEach, describe, expect, it } from 'vitest';
import { plantRouter } from '../src/index';
import { countingErrorHandler, hostCatchAll, majors, mountings, start } from './hosts';

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
};

/** Cases lost without `keepRawBody`, when the route has only the value `JSON.parse` made. */
const LOST_IN_PARSED_VALUE: Readonly<Record<string, string>> = {
  ...DECIDED_BY_JSON_PARSER,
  'keeps 9007199254740993 and both int64 ends exact from the bytes to the store':
    'JSON.parse rounded the ids: 400 id_unsafe_in_parsed_body',
  'refuses duplicate keys, __proto__ and constructor keys, and nesting deeper than 64':
    'JSON.parse keeps the last of duplicate keys',
  'refuses lone surrogates, U+0000 and invalid UTF-8':
    'the parser decodes invalid UTF-8 to U+FFFD before JSON.parse',
  'answers 413 for a body over 16 KiB, declared or streamed':
    'a chunked body has no declared length, and the parsed value no size',
};

const setups = [
  { helper: true, skipped: DECIDED_BY_JSON_PARSER, at: mountings },
  { helper: false, skipped: LOST_IN_PARSED_VALUE, at: mountings.slice(1, 2) },
] as const;

for (const [name, express] of majors) {
  for (const { helper, skipped, at } of setups) {
    for (const mounting of at) {
      const parser = helper ? 'express.json({ verify: route.keepRawBody })' : 'express.json()';
      const how = `${name}, mounted ${mounting.name} behind ${parser}`;
      describe(how, () => {
        beforeEach((context) => {
          const reason = skipped[context.task.name];
          if (reason !== undefined) context.skip(`decided before the route: ${reason}`);
        });
        const errors = countingErrorHandler();
        describeHttpContract(how, {
          passesOn: true,
          start(options) {
            const app = express();
            const route = plantRouter(options);
            app.use(express.json(helper ? { verify: route.keepRawBody } : {}));
            mounting.mount(express, app, route);
            app.use(hostCatchAll);
            app.use(errors.handler);
            return start(app, mounting.path);
          },
        });
        it('never reached the host error handler for an answer of the route', () => {
          expect(errors.calls).toEqual([]);
        });
      });
    }
  }
}
