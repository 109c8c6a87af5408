import { listen, send, useHostFixture } from '@plantstore/http-suite';
import { KOA_MAJORS, nodeListener } from '@plantstore/http-suite/hosts';
import { describe, expect, it } from 'vitest';
import { plantRoutes, protectedResourceMetadata } from '../src/index';

const fixture = useHostFixture();
const BARE = '/.well-known/oauth-protected-resource';

describe('protectedResourceMetadata', () => {
  it('throws a TypeError at once for a service made without resourceMetadata', () => {
    fixture.expectMetadataNeedsOption(protectedResourceMetadata);
  });
});

describe.each(Object.entries(KOA_MAJORS))('in a %s app', (_, KoaApp) => {
  it('hands the core ctx.originalUrl: a proof names the path before a mount stripped its prefix', async () => {
    const plants = plantRoutes(fixture.dpopOptions());
    const app = new KoaApp();
    app.use(protectedResourceMetadata(plants.service));
    // What koa-mount does: the middleware under it sees the path without the mount point.
    app.use(async (ctx, next) => {
      if (!ctx.path.startsWith('/api/')) {
        await next();
        return;
      }
      const whole = ctx.path;
      ctx.path = whole.slice('/api'.length);
      try {
        await next();
      } finally {
        ctx.path = whole;
      }
    });
    app.use(plants);
    app.use((ctx) => {
      ctx.status = 404;
      ctx.body = `host:${ctx.originalUrl}`;
    });
    const host = fixture.track(await listen(nodeListener(app)));
    await fixture.expectProofUrl(
      host.url,
      '/api/plants',
      'https://api.example.com/api/plants',
      'https://api.example.com/plants',
    );
    const found = await send(host.url, { method: 'GET', path: BARE });
    expect([found.status, found.json]).toEqual([200, plants.service.resourceMetadata?.document]);
    // Under the mount, the metadata middleware sees /.well-known/… but the client asked for /api/…
    for (const path of [`/api${BARE}`, `${BARE}/`]) {
      const passed = await send(host.url, { method: 'GET', path });
      expect([passed.status, passed.text]).toEqual([404, `host:${path}`]);
    }
  });
});
