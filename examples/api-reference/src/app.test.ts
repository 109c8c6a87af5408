import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostDocument } from './host-document';
import { startApp, type StartedApp } from './start-app';

interface Document {
  readonly openapi: string;
  readonly security?: unknown;
  readonly paths: Record<string, Record<string, { security?: unknown }>>;
  readonly components: Record<string, Record<string, unknown>>;
}

describe('the API reference example app, over HTTP', () => {
  let app: StartedApp;
  let base: string;

  beforeAll(async () => {
    app = await startApp();
    base = app.url;
  });

  afterAll(async () => {
    await app.close();
  });

  it("serves one document: the app's own paths and schemas, and the route at /api/plants", async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as Document;
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(['/health', '/api/catalogue', '/api/plants']);
    expect(document.paths['/health']).toEqual(hostDocument.paths['/health']);
    expect(document.components.schemas?.CatalogueItem).toEqual(
      hostDocument.components.schemas.CatalogueItem,
    );
    expect(Object.keys(document.components.securitySchemes ?? {})).toEqual(['bearerAuth']);
    // The bearer requirement is the route's alone: the app's own routes stay public.
    expect(document.security).toBeUndefined();
    expect(document.paths['/api/plants']?.post?.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/catalogue']?.get?.security).toBeUndefined();
  });

  it('serves the page and its assets from the app, and none of the Petstore files', async () => {
    const page = await fetch(`${base}/docs`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url)).toEqual([
      '/docs/swagger-ui.css',
      '/docs/favicon-32x32.png',
      '/docs/swagger-ui-bundle.js',
      '/docs/init.js',
    ]);
    const types = await Promise.all(
      ['swagger-ui.css', 'favicon-32x32.png', 'swagger-ui-bundle.js', 'init.js'].map(
        async (asset) => (await fetch(`${base}/docs/${asset}`)).headers.get('content-type'),
      ),
    );
    expect(types).toEqual([
      'text/css; charset=utf-8',
      'image/png',
      'text/javascript; charset=utf-8',
      'text/javascript; charset=utf-8',
    ]);
    for (const petstore of ['index.html', 'swagger-initializer.js', 'package.json']) {
      expect((await fetch(`${base}/docs/${petstore}`)).status).toBe(404);
    }
  });

  it("keeps the app's own routes and mounts the plants route behind its bearer check", async () => {
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${base}/api/catalogue`)).status).toBe(200);
    const unauthenticated = await fetch(`${base}/api/plants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"id": 1, "name": "Fern"}',
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe('Bearer realm="plantstore"');
  });
});
