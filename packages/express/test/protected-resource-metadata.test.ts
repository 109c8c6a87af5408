import { createPlantService } from '@plantstore/core';
import { listen, send, useHostFixture } from '@plantstore/http-suite';
import { EXPRESS_MAJORS } from '@plantstore/http-suite/hosts';
import { describe, expect, it } from 'vitest';
import { protectedResourceMetadata } from '../src/index';

const fixture = useHostFixture();
const BARE = '/.well-known/oauth-protected-resource';

describe('protectedResourceMetadata', () => {
  it('throws a TypeError at once for a service made without resourceMetadata', () => {
    fixture.expectMetadataNeedsOption(protectedResourceMetadata);
  });

  for (const [name, express] of Object.entries(EXPRESS_MAJORS)) {
    it(`${name}: answers the whole path only, at the root, and passes every other request on`, async () => {
      const service = createPlantService(fixture.dpopOptions());
      const app = express();
      app.use(protectedResourceMetadata(service));
      // Mounted below the root, it never answers: RFC 9728 metadata is at the host's root.
      app.use('/api', protectedResourceMetadata(service));
      app.use(
        (req, res) => void res.status(404).type('text/plain').send(`host:${req.originalUrl}`),
      );
      const host = fixture.track(await listen(app));
      const found = await send(host.url, { method: 'GET', path: `${BARE}/plants?x=1` });
      expect([found.status, found.headers['cache-control'], found.json]).toEqual([
        200,
        'public, max-age=3600',
        service.resourceMetadata?.document,
      ]);
      for (const path of [`/api${BARE}`, `${BARE}/`, BARE.toUpperCase(), '/plants']) {
        const passed = await send(host.url, { method: 'GET', path });
        expect([passed.status, passed.text]).toEqual([404, `host:${path}`]);
      }
    });
  }
});
