import { createPlantService } from '@plantstore/core';
import { send } from '@plantstore/http-suite';
import { describe, expect, it } from 'vitest';
import { plantPlugin, protectedResourceMetadata } from '../src/index';
import { useFixture } from './fixture';
import { majors, start } from './hosts';

const fixture = useFixture();
const PATHS = [
  '/.well-known/oauth-protected-resource/plants',
  '/.well-known/oauth-protected-resource',
] as const;
const NOT_ALLOWED = {
  status: 405,
  allow: 'GET, HEAD',
  text: '{"error":405,"message":"Only GET, HEAD are allowed here."}',
};

describe('protectedResourceMetadata', () => {
  it('throws a TypeError at once for a service made without resourceMetadata', () => {
    fixture.expectMetadataNeedsOption(protectedResourceMetadata);
  });

  for (const [name, fastify] of majors) {
    describe(name, () => {
      it('fails register under a prefix: the metadata lives at the root', async () => {
        const app = fastify();
        const service = createPlantService(fixture.dpopOptions());
        void app.register(
          (api, _options, done) => {
            void api.register(protectedResourceMetadata(service));
            done();
          },
          { prefix: '/api' },
        );
        await expect(app.ready()).rejects.toThrow(
          new TypeError(
            'Plantstore: register protectedResourceMetadata at the root, without a prefix: RFC 9728 metadata lives at /.well-known/oauth-protected-resource/plants and /.well-known/oauth-protected-resource; received the prefix /api',
          ),
        );
        await app.close();
      });

      it('answers any other method 405 without reading the body, whatever its type', async () => {
        // Fastify 5 reads the router's options from `routerOptions`; Fastify 4 from the top level.
        const routing = { ignoreTrailingSlash: true, caseSensitive: false };
        const app = fastify(name === 'Fastify 4' ? routing : { routerOptions: routing });
        const service = createPlantService(fixture.dpopOptions());
        await app.register(protectedResourceMetadata(service));
        app.setNotFoundHandler((request, reply) =>
          reply.code(404).send(`host:${request.method} ${request.url}`),
        );
        const host = fixture.track(await start(app));
        for (const path of PATHS) {
          const head = await send(host.url, { method: 'HEAD', path });
          expect([head.status, head.headers['content-type'], head.text]).toEqual([
            200,
            'application/json; charset=utf-8',
            '',
          ]);
          for (const [type, body] of [
            ['application/json', '{"broken":'],
            ['application/x-www-form-urlencoded', 'a=1'],
            ['', 'no type'],
            [undefined, 'no type'],
          ] as const) {
            const reply = await send(host.url, {
              method: type === '' ? 'PUT' : 'POST',
              path,
              body,
              headers: type === undefined ? {} : { 'content-type': type },
            });
            expect({
              status: reply.status,
              allow: reply.headers['allow'],
              text: reply.text,
            }).toEqual(NOT_ALLOWED);
          }
        }
        // The app's leniency routes these here; the metadata is at neither path.
        for (const path of [`${PATHS[1]}/`, PATHS[1].toUpperCase()]) {
          const reply = await send(host.url, { method: 'GET', path });
          expect([reply.status, reply.text]).toEqual([404, `host:GET ${path}`]);
        }
      });

      it('hands the core the URL the client sent, before rewriteUrl, for the proof', async () => {
        const app = fastify({ rewriteUrl: (req) => (req.url ?? '/').replace(/^\/v2\//u, '/api/') });
        const plants = plantPlugin(fixture.dpopOptions());
        await app.register(plants, { prefix: '/api' });
        const host = fixture.track(await start(app));
        await fixture.expectProofUrl(
          host.url,
          '/v2/plants',
          'https://api.example.com/v2/plants',
          'https://api.example.com/api/plants',
        );
      });
    });
  }
});
