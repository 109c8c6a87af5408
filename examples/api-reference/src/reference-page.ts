import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Router } from 'express';

/** What the page shows. */
export interface ReferencePageOptions {
  /** Where the page's script fetches the OpenAPI document, e.g. `/openapi.json`. */
  readonly documentUrl: string;
  /** The browser tab's title. */
  readonly title: string;
}

// Only the files the page loads: swagger-ui-dist also ships an index.html and an initializer that
// point at the public Petstore, which this app must not serve.
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'] as const;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function pageHtml(base: string, title: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <link rel="stylesheet" href="${base}/swagger-ui.css" />
    <link rel="icon" type="image/png" href="${base}/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${base}/swagger-ui-bundle.js"></script>
    <script src="${base}/init.js"></script>
  </body>
</html>
`;
}

function initScript(documentUrl: string): string {
  // validatorUrl: null, or Swagger UI sends the document to validator.swagger.io for a badge.
  // defaultModelRendering 'model': bodies open on their schema. The route's schemas carry examples,
  // so "Example Value" would show a plant too; the page's tests and screenshot read the schema.
  const config = {
    url: documentUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    defaultModelRendering: 'model',
  };
  return `window.ui = SwaggerUIBundle(${JSON.stringify(config)});\n`;
}

/**
 * An API reference page (Swagger UI) of an OpenAPI document, served entirely by the app from
 * `swagger-ui-dist` in node_modules: no CDN, so it works offline and behind a strict CSP
 * (`script-src 'self'`: the page has no inline script).
 *
 * @param options - where the document is served and the page's title
 * @returns a router to mount where the page should be, e.g. at `/docs`
 * @example
 * ```ts
 * app.use('/docs', referencePage({ documentUrl: '/openapi.json', title: 'Greenhouse API' }));
 * ```
 */
export function referencePage(options: ReferencePageOptions): Router {
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const html = (base: string) => pageHtml(escapeHtml(base), options.title);
  const init = initScript(options.documentUrl);
  const router = Router({ strict: true });

  router.get('/', (req, res) => {
    // Asset links carry the mount path, so `/docs` and `/docs/` both find them.
    res.type('html').send(html(req.baseUrl));
  });
  router.get('/init.js', (_req, res) => {
    res.type('js').send(init);
  });
  for (const asset of ASSETS) {
    router.get(`/${asset}`, (_req, res, next) => {
      // With `root`, only the asset's own name is checked for dot segments: pnpm's store lies under
      // node_modules/.pnpm, which `send` refuses in an absolute path.
      res.sendFile(asset, { root: dist, maxAge: '1h' }, (error) => {
        if (error !== undefined) next(error);
      });
    });
  }
  return router;
}
