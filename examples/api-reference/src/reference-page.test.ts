import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumExecutable, hasChromium, startChromium, type HeadlessChromium } from './chromium';
import { openOperation, operationBlock } from './reference-view';
import { hostDocument } from './host-document';
import { startApp, type StartedApp } from './start-app';

// CI installs Chromium (.ci/run) and must not pass without this test; elsewhere it is skipped, saying why.
const required = process.env.CI === 'true' || process.env.PLANTSTORE_REQUIRE_SERVICES === '1';
const skipped = !hasChromium() && !required;
if (skipped) {
  console.warn(
    `Skipping the API reference page's browser test: no Chromium at ${chromiumExecutable} ` +
      '(apt-get install -y chromium, or set PLANTSTORE_CHROMIUM to a Chromium binary).',
  );
}

// Generous: a cold Chromium and a 1.7 MB script on a busy two-core machine. Every wait is on the
// page's content, never on time; this only bounds a hang.
const BROWSER_TIMEOUT = 120_000;

const STATUSES = ['200', '400', '401', '403', '408', '409', '413', '415', '500', '503'];

interface RouteDocument {
  readonly paths: Record<string, { post: { responses: Record<string, unknown> } }>;
}

describe.skipIf(skipped)('the API reference page in Chromium', { timeout: BROWSER_TIMEOUT }, () => {
  let browser: HeadlessChromium;

  beforeAll(async () => {
    if (!hasChromium()) throw new Error(`CI needs Chromium at ${chromiumExecutable}: see .ci/run.`);
    browser = await startChromium({ width: 1280, height: 900 });
  }, BROWSER_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
  });

  // The route's schemas follow the host document's version; Swagger UI draws each dialect itself.
  describe.each(['3.1.0', '3.0.3'] as const)('of an OpenAPI %s app document', (version) => {
    let app: StartedApp;
    let page: Page;
    // Every URL the page asked for: it must never leave this app (no CDN, no validator badge).
    let requested: string[];

    beforeAll(async () => {
      app = await startApp(0, { ...hostDocument, openapi: version });
    });

    afterAll(async () => {
      await app?.close();
    });

    beforeEach(async () => {
      page = await browser.context.newPage();
      page.setDefaultTimeout(BROWSER_TIMEOUT);
      requested = [];
      page.on('request', (request) => void requested.push(request.url()));
    });

    afterEach(async () => {
      await page.close();
    });

    const openRoute = () => openOperation(page, `${app.url}/docs`, '/api/plants');
    const summaryOf = async (method: string, path: string) => {
      const summary = operationBlock(page, method, path).locator('.opblock-summary');
      return (await summary.innerText()).split('\n');
    };
    const authorizeDialog = async () => {
      await page.locator('.auth-wrapper .authorize').click();
      return page.locator('.dialog-ux .modal-ux');
    };

    it("lists the app's own operations and POST /api/plants, all from this app", async () => {
      await openRoute();
      const title = await page.locator('.info .title').innerText();
      expect(title.replace(/\s+/g, ' ').trim()).toBe(
        `Greenhouse API 2.4.0 OAS ${version.slice(0, 3)}`,
      );
      expect(await summaryOf('get', '/api/catalogue')).toEqual([
        'GET',
        '/api/catalogue',
        'List the plants for sale',
      ]);
      expect(await summaryOf('get', '/health')).toEqual(['GET', '/health', 'Is the app up']);
      expect(await summaryOf('post', '/api/plants')).toEqual([
        'POST',
        '/api/plants',
        'Create a plant',
      ]);
      expect(requested.filter((url) => !url.startsWith(`${app.url}/`))).toEqual([]);
      expect(requested).toContain(`${app.url}/openapi.json`);
    });

    it(`shows every response the document gives the route: ${STATUSES.join(', ')}`, async () => {
      const document = (await (await fetch(`${app.url}/openapi.json`)).json()) as RouteDocument;
      expect(Object.keys(document.paths['/api/plants']?.post.responses ?? {})).toEqual(STATUSES);

      const operation = await openRoute();
      const shown = operation.locator('.responses-table tr.response > td.response-col_status');
      expect(await shown.allInnerTexts()).toEqual(STATUSES);
      const conflict = operation.locator('.responses-table tr.response[data-code="409"]');
      expect(await conflict.locator('.response-col_description').innerText()).toContain(
        'A plant with this id already exists with a different name or tag, or was created by another caller',
      );
    });

    it('shows the bearer scheme in the Authorize dialog, and a lock on the route alone', async () => {
      await openRoute();
      const locks = (method: string, path: string) =>
        operationBlock(page, method, path).locator('.authorization__btn').count();
      expect(await locks('post', '/api/plants')).toBe(1);
      expect(await locks('get', '/api/catalogue')).toBe(0);
      expect(await locks('get', '/health')).toBe(0);

      const dialog = await authorizeDialog();
      const scheme = await dialog.locator('.auth-container h4').innerText();
      expect(scheme.replace(/\s+/g, ' ')).toBe('bearerAuth (http, Bearer)');
      expect(await dialog.innerText()).toContain(
        'A bearer token in the Authorization header only, never in the query string or a cookie.',
      );
    });

    it('creates a plant from the page with a token given to the Authorize dialog', async () => {
      const operation = await openRoute();
      const dialog = await authorizeDialog();
      await dialog.locator('input').fill(await app.token('reader-of-docs'));
      await dialog.getByRole('button', { name: 'Apply credentials' }).click();
      await dialog.getByRole('button', { name: 'Close' }).click();

      await operation.getByRole('button', { name: 'Try it out' }).click();
      // An id past 2^53: the page sends the body as typed, and the route keeps the id exact.
      const body = '{"id": 9007199254740993, "name": "Monstera"}';
      await operation.locator('textarea.body-param__text').fill(body);
      await operation.getByRole('button', { name: 'Execute' }).click();

      const live = operation.locator('.live-responses-table tr.response');
      expect(await live.locator('.response-col_status').innerText()).toBe('200');
      expect(await live.locator('.response-col_description pre').first().innerText()).toBe(
        '{\n  "name": "Monstera"\n}',
      );
      expect(app.store.get(9007199254740993n)).toMatchObject({
        id: 9007199254740993n,
        name: 'Monstera',
      });
    });
  });
});
