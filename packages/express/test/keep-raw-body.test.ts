import { memoryStore, type MemoryStore, type PlantServiceError } from '@plantstore/core';
import { type ContractHost, expectError, listen, useHostFixture } from '@plantstore/http-suite';
import {
  EXPRESS_MAJORS,
  type ExpressFactory,
  expressHostApp,
  hostRecord,
} from '@plantstore/http-suite/hosts';
import type { Express, RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { type PlantRouter, plantRouter } from '../src/index';

const fixture = useHostFixture();

/** `{"id":…,"name":"<bytes>"}` with raw bytes inside the name, such as invalid UTF-8. */
const withBytes = (id: number, bytes: number[]): Buffer =>
  Buffer.concat([Buffer.from(`{"id":${id},"name":"`), Buffer.from(bytes), Buffer.from('"}')]);

interface Host {
  readonly host: ContractHost;
  readonly store: MemoryStore;
  readonly rejected: PlantServiceError[];
  readonly warnings: string[];
  readonly hostErrors: unknown[];
}

for (const [name, express] of Object.entries(EXPRESS_MAJORS)) {
  /** An app whose `parser(route)` runs before the route, mounted at `/api`. */
  const hostWith = async (
    parser: (route: PlantRouter) => RequestHandler,
    extra: (app: Express) => void = () => undefined,
  ): Promise<Host> => {
    const store = memoryStore();
    const rejected: PlantServiceError[] = [];
    const warnings: string[] = [];
    const logger = { warn: (line: string) => void warnings.push(line), error: () => undefined };
    const record = hostRecord();
    const onRejected = (error: PlantServiceError) => void rejected.push(error);
    const route = plantRouter(fixture.options({ store, onRejected, logger }));
    const app = expressHostApp(express, route, {
      hooks: record.hooks,
      mounting: {
        name: 'at /api after the parser',
        path: '/api',
        mount(_express, host) {
          host.use(parser(route));
          extra(host);
          host.use('/api', route);
        },
      },
    });
    return {
      host: fixture.track(await listen(app, '/api')),
      store,
      rejected,
      warnings,
      hostErrors: record.errors,
    };
  };
  const json = (express_: ExpressFactory) => (route: PlantRouter) =>
    express_.json({ verify: route.keepRawBody });

  describe(`${name}: keepRawBody`, () => {
    it("keeps the parser's own buffer, not a copy, on the route's requests and on no other", async () => {
      const given: Buffer[] = [];
      const kept: unknown[] = [];
      const { host } = await hostWith(
        (route) =>
          express.json({
            verify: (req, res, body) => {
              given.push(body);
              route.keepRawBody(req, res, body);
            },
          }),
        (app) =>
          app.use((req, _res, next) => {
            kept.push((req as { rawBody?: unknown }).rawBody);
            next();
          }),
      );
      const origin = new URL(host.url).origin;
      expect((await fixture.post(host.url, '{"id":1,"name":"a"}')).status).toBe(200);
      await fixture.post(host.url, '{"id":2,"name":"b"}', { path: '/plants?draft=1' });
      await fixture.post(origin, '{"other":true}', { path: '/api/feedback' });
      await fixture.post(host.url, '{"id":3,"name":"c"}', { method: 'PUT' });
      expect(kept).toHaveLength(4);
      expect(kept[0]).toBe(given[0]);
      expect(kept[1]).toBe(given[1]);
      expect(kept.slice(2)).toEqual([undefined, undefined]);
    });

    it('keeps the bytes of any POST …/plants, as the route could be mounted there too', async () => {
      const kept: unknown[] = [];
      const { host } = await hostWith(json(express), (app) =>
        app.use((req, _res, next) => {
          kept.push((req as { rawBody?: unknown }).rawBody);
          next();
        }),
      );
      const reply = await fixture.post(new URL(host.url).origin, '{"a":1}', {
        path: '/elsewhere/plants',
      });
      expect(reply.text).toBe('host:POST /elsewhere/plants');
      expect(kept[0]).toEqual(Buffer.from('{"a":1}'));
    });

    it('keeps 9007199254740993 and both int64 ends exact behind express.json()', async () => {
      const { host, store } = await hostWith(json(express));
      for (const id of ['9007199254740993', '9223372036854775807', '-9223372036854775808']) {
        expect((await fixture.post(host.url, `{"id":${id},"name":"Exact"}`)).status).toBe(200);
        expect(store.get(BigInt(id))?.name).toBe('Exact');
      }
    });

    it('refuses what JSON.parse accepts: duplicate keys, a lone surrogate in an ignored member, invalid UTF-8', async () => {
      const { host, store, rejected } = await hostWith(json(express));
      expectError(await fixture.post(host.url, '{"id":1,"name":"a","name":"b"}'), 400);
      expect(rejected.at(-1)?.code).toBe('body_duplicate_key');
      expectError(await fixture.post(host.url, '{"id":2,"name":"a","note":"\\udc00"}'), 400);
      expect(rejected.at(-1)?.code).toBe('body_lone_surrogate');
      expectError(await fixture.post(host.url, withBytes(3, [0xc3, 0x28])), 400);
      expect(rejected.at(-1)?.code).toBe('body_invalid_utf8');
      expect(store.size).toBe(0);
    });

    it('reads the bytes express.text() kept, where its text has U+FFFD for invalid UTF-8', async () => {
      const { host, store, rejected } = await hostWith((route) =>
        express.text({ type: 'application/json', verify: route.keepRawBody }),
      );
      expectError(await fixture.post(host.url, withBytes(4, [0xff])), 400);
      expect(rejected.at(-1)?.code).toBe('body_invalid_utf8');
      expect(store.size).toBe(0);
    });

    it("still leaves to the parser what it refuses first, through the host's error handler", async () => {
      const { host, rejected, hostErrors } = await hostWith(json(express));
      const bad = await fixture.post(host.url, '{"id":1,');
      expect([bad.status, bad.json]).toEqual([
        400,
        expect.objectContaining({ host: 'error handler' }),
      ]);
      const latin1 = await fixture.post(host.url, '{"id":1,"name":"a"}', {
        headers: { 'content-type': 'application/json; charset=latin1' },
      });
      expect([latin1.status, latin1.json]).toEqual([
        415,
        expect.objectContaining({ host: 'error handler' }),
      ]);
      expect(hostErrors).toMatchObject([
        { status: 400, type: 'entity.parse.failed' },
        { status: 415, type: 'charset.unsupported' },
      ]);
      expect(rejected).toEqual([]);
    });

    it('reads a raw body kept as text by a verify of your own, ids exact', async () => {
      const { host, store } = await hostWith(() =>
        express.json({
          verify: (req, _res, body) => {
            (req as { rawBody?: string }).rawBody = body.toString('utf8');
          },
        }),
      );
      expect((await fixture.post(host.url, '{"id":9007199254740993,"name":"Text"}')).status).toBe(
        200,
      );
      expect(store.get(9007199254740993n)?.name).toBe('Text');
    });
  });

  describe(`${name}: what is not exact without keepRawBody`, () => {
    it('creates nothing behind express.json() alone: a parsed id cannot be proven exact', async () => {
      const { host, store, rejected, warnings } = await hostWith(() => express.json());
      expectError(await fixture.post(host.url, '{"id":5,"name":"a","note":"\\udc00"}'), 500);
      expectError(await fixture.post(host.url, '{"id":6,"name":"b"}'), 500);
      expect(rejected.map(({ code }) => code)).toEqual(Array(2).fill('body_parsed_by_host'));
      expect(store.size).toBe(0);
      // The server is told once, with the fix; the client's answer says nothing of its middleware.
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('express.json({ verify: plants.keepRawBody })');
    });

    it('refuses U+FFFD in text express.text() decoded, which may stand for invalid UTF-8', async () => {
      const { host, store, rejected } = await hostWith(() =>
        express.text({ type: 'application/json' }),
      );
      expectError(await fixture.post(host.url, withBytes(6, [0xff])), 400);
      expectError(await fixture.post(host.url, withBytes(6, [0xef, 0xbf, 0xbd])), 400);
      expect(rejected.map(({ code }) => code)).toEqual([
        'body_decoded_by_host',
        'body_decoded_by_host',
      ]);
      expect((await fixture.post(host.url, '{"id":6,"name":"\\ufffd"}')).status).toBe(200);
      expect([store.size, store.get(6n)?.name]).toEqual([1, '\ufffd']);
    });

    it('keeps invalid UTF-8 refused behind express.raw(), which left the bytes', async () => {
      const { host, rejected } = await hostWith(() => express.raw({ type: 'application/json' }));
      expectError(await fixture.post(host.url, withBytes(7, [0xff])), 400);
      expect(rejected.at(-1)?.code).toBe('body_invalid_utf8');
    });
  });
}
