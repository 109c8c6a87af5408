import type { Locator, Page } from 'playwright-core';

/**
 * The block Swagger UI draws for one operation, found by its method and path as the page shows them.
 *
 * @param page - a page showing the reference
 * @param method - `get`, `post`, …
 * @param path - the path as in the document, e.g. `/api/plants`
 * @returns the operation's block
 * @example
 * ```ts
 * await operationBlock(page, 'post', '/api/plants').waitFor();
 * ```
 */
export function operationBlock(page: Page, method: string, path: string): Locator {
  return page
    .locator(`.opblock.opblock-${method}`)
    .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
}

/**
 * Opens the reference page at `url` and expands the `POST` operation at `path`, waiting until its
 * responses are drawn: Swagger UI fetches the document and renders after the page has loaded.
 *
 * @param page - a fresh browser page
 * @param url - the reference page, e.g. `http://127.0.0.1:3000/docs`
 * @param path - the route's path in the document
 * @returns the expanded operation's block
 * @example
 * ```ts
 * const operation = await openOperation(page, `${base}/docs`, '/api/plants');
 * ```
 */
export async function openOperation(page: Page, url: string, path: string): Promise<Locator> {
  await page.goto(url);
  const operation = operationBlock(page, 'post', path);
  await operation.locator('.opblock-summary-control').click();
  await operation.locator('.responses-table tr.response').first().waitFor();
  return operation;
}
