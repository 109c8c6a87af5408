import type { IncomingMessage, ServerResponse } from 'node:http';
import { memoryStore, type MemoryStore, type PlantServiceError } from '@plantstore/core';
import {
  type ContractHost,
  expectError,
  expectRouteHeaders,
  listen,
  send,
  useHostFixture,
} from '@plantstore/http-suite';
import { rawHead, sendRaw } from '@plantstore/http-suite/client';
import { EXPRESS_MAJORS, expressHostApp, hostRecord } from '@plantstore/http-suite/hosts';
import type { RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { plantRouter } from '../src/index';

const fixture = useHostFixture();

/** A `verify` that keeps every body's bytes on `req.rawBody`, as NestJS's `rawBody: true` does. */
const keepEverything = (req: IncomingMessage, _res: ServerResponse, bytes: Buffer): void => {
  Object.assign(req, { rawBody: bytes });
};

interface ParsedHost {
  readonly host: ContractHost;
  readonly store: MemoryStore;
  readonly rejected: PlantServiceError[];
  readonly hostErrors: unknown[];
}

for (const [name, express] of Object.entries(EXPRESS_MAJORS)) {
  /** An app that runs `parsers` before the route, as a host with its own body parsing would. */
  const hostWith = async (...parsers: RequestHandler[]): Promise<ParsedHost> => {
    const store = memoryStore();
    const rejected: PlantServiceError[] = [];
    const options = fixture.options({ store, onRejected: (error) => void rejected.push(error) });
    const record = hostRecord();
    const route = plantRouter(options);
    const app = expressHostApp(express, route, {
      hooks: record.hooks,
      mounting: {
        name: 'after parsers',
        path: '',
        mount: (_, host) => host.use(...parsers, route),
      },
    });
    const host = fixture.track(await listen(app));
    return { host, store, rejected, hostErrors: record.errors };
  };

  describe(`${name} with express.json() mounted before the route`, () => {
    it('refuses every numeric id it only has parsed, stores nothing, and says how to keep the bytes', async () => {
      const { host, store, rejected } = await hostWith(express.json());
      for (const id of [
        '5',
        '9007199254740993',
        '4503599627370497.5',
        '1.0000000000000001',
        '1e-400',
      ]) {
        const reply = await fixture.post(host.url, `{"id":${id},"name":"Rounded"}`);
        // The server's set-up, not the client's request: a generic 500, the fix in the server's log.
        expectError(reply, 500, /internal error/);
        expect(rejected.at(-1)?.code).toBe('body_parsed_by_host');
      }
      expect(store.size).toBe(0);
    });

    it("answers the client's own mistakes in name and tag 400 before the numeric id's 500", async () => {
      const { host, rejected } = await hostWith(express.json());
      for (const body of ['{"id":1,"name":5}', '{"id":1,"name":"a","tag":null}', '{"id":1}']) {
        expectError(await fixture.post(host.url, body), 400, /The plant is invalid/);
        expect(rejected.at(-1)?.code).toMatch(/^(schema_mismatch|field_missing)$/);
      }
    });

    it('creates, replays and conflicts exactly once the parser keeps the bytes for the route', async () => {
      const { host, store } = await hostWith(express.json({ verify: keepEverything }));
      const reply = await fixture.post(host.url, '{"id":9007199254740993,"name":"Fern","tag":"t"}');
      expect(reply.status).toBe(200);
      expectRouteHeaders(reply);
      expect(reply.text).toBe('{"name":"Fern","tag":"t"}');
      expect(store.get(9007199254740993n)?.name).toBe('Fern');
      expect((await fixture.post(host.url, '{"id":5,"name":"A"}')).status).toBe(200);
      expect((await fixture.post(host.url, '{"id":5,"name":"A"}')).status).toBe(200);
      expectError(await fixture.post(host.url, '{"id":5,"name":"B"}'), 409);
    });

    it("leaves bad JSON to express.json(), which answers 400 through the host's error handler", async () => {
      const { host, rejected, hostErrors } = await hostWith(express.json());
      const reply = await fixture.post(host.url, '{"id":1,');
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ host: 'error handler' });
      expect(hostErrors).toHaveLength(1);
      expect(hostErrors[0]).toMatchObject({ status: 400, type: 'entity.parse.failed' });
      expect(rejected).toEqual([]);
    });

    it('answers an empty body 400 body_empty, not the {} body-parser makes of it', async () => {
      const { host, rejected } = await hostWith(express.json());
      expectError(await fixture.post(host.url, ''), 400, /empty/);
      expect(rejected.at(-1)?.code).toBe('body_empty');
    });

    it('answers a request without any body 400 body_empty (Express 5 leaves req.body undefined)', async () => {
      const seen: unknown[] = [];
      const observe: RequestHandler = (req, _res, next) => {
        seen.push(req.body);
        next();
      };
      const { host, rejected, hostErrors } = await hostWith(express.json(), observe);
      // No Content-Length and no Transfer-Encoding: a request without a body, which body-parser skips.
      const { port, host: origin } = new URL(host.url);
      const target = { host: origin, path: '/plants', token: fixture.token };
      const [reply] = (await sendRaw(Number(port), rawHead(target))).responses;
      expect(reply?.status).toBe(400);
      expect(JSON.parse(reply?.text ?? '')).toMatchObject({ error: 400 });
      expect(rejected.at(-1)?.code).toBe('body_empty');
      expect(hostErrors).toEqual([]);
      // body-parser 1 sets {} on a request it skips; body-parser 2 leaves undefined.
      expect(seen).toEqual([name === 'Express 4' ? {} : undefined]);
    });

    it('reads the body itself when the parser skipped it, so another media type answers 415', async () => {
      const { host, rejected } = await hostWith(express.json());
      const reply = await fixture.post(host.url, '{"id":1,"name":"a"}', {
        headers: { 'content-type': 'text/plain' },
      });
      expectError(reply, 415);
      expect(rejected.at(-1)?.code).toBe('media_type_unsupported');
    });

    it('answers JSON that is not an object 400 body_not_object', async () => {
      const { host, rejected } = await hostWith(express.json());
      expectError(await fixture.post(host.url, '[1,2]'), 400);
      expect(rejected.at(-1)?.code).toBe('body_not_object');
    });

    it('still answers 401 without a token, after the parser has read the body', async () => {
      const { host } = await hostWith(express.json());
      const reply = await send(host.url, {
        body: '{"id":1,"name":"a"}',
        headers: { 'content-type': 'application/json' },
      });
      expectError(reply, 401);
    });
  });

  describe(`${name} with express.text() or express.raw() mounted before the route`, () => {
    it('keeps 9007199254740993 exact from the text express.text() left', async () => {
      const { host, store } = await hostWith(express.text({ type: 'application/json' }));
      const reply = await fixture.post(host.url, '{"id":9007199254740993,"name":"Text"}');
      expect(reply.status).toBe(200);
      expect(store.get(9007199254740993n)?.name).toBe('Text');
    });

    it('keeps 9007199254740993 exact from the bytes express.raw() left, and checks their UTF-8', async () => {
      const { host, store, rejected } = await hostWith(express.raw({ type: 'application/json' }));
      const reply = await fixture.post(host.url, '{"id":9007199254740993,"name":"Raw"}');
      expect(reply.status).toBe(200);
      expect(store.get(9007199254740993n)?.name).toBe('Raw');
      const invalid = Buffer.concat([
        Buffer.from('{"id":1,"name":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}'),
      ]);
      expectError(await fixture.post(host.url, invalid), 400);
      expect(rejected.at(-1)?.code).toBe('body_invalid_utf8');
    });

    it('still applies its own limit to a body express.raw() read (413)', async () => {
      const { host } = await hostWith(express.raw({ type: 'application/json' }));
      const big = `{"id":1,"name":"${'x'.repeat(16_384)}"}`;
      expectError(await fixture.post(host.url, big), 413);
    });
  });

  describe(`${name} with a host middleware that reads the body and keeps nothing`, () => {
    it('answers 400 body_aborted instead of waiting for a stream that has ended', async () => {
      const drain: RequestHandler = (req, _res, next) => {
        req.on('end', () => next());
        req.resume();
      };
      const { host, rejected } = await hostWith(drain);
      expectError(await fixture.post(host.url, '{"id":1,"name":"a"}'), 400);
      expect(rejected.at(-1)?.code).toBe('body_aborted');
    });
  });
}
