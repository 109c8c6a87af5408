import { fileURLToPath } from 'node:url';
import { chromiumExecutable, hasChromium, startChromium } from './chromium';
import { openOperation } from './reference-view';
import { startApp } from './start-app';

// Regenerates the picture in docs/guides/openapi.md: `pnpm --filter @plantstore/example-api-reference
// screenshot`. Not run in CI: a picture that changes with every Swagger UI release is no test.
const target = fileURLToPath(new URL('../../../docs/guides/api-reference.png', import.meta.url));

if (!hasChromium()) {
  console.error(`No Chromium at ${chromiumExecutable}: apt-get install -y chromium.`);
  process.exit(1);
}

const app = await startApp();
const browser = await startChromium({ width: 1200, height: 900 });
try {
  const page = await browser.context.newPage();
  const operation = await openOperation(page, `${app.url}/docs`, '/api/plants');
  // From the title down to the end of the 200 response: the app's own operations, the route with
  // its lock, its request body, the start of its responses. The whole page is 6,000 pixels high
  // and near a megabyte.
  // The click that expanded the route left a focus ring on it.
  await page.evaluate('document.activeElement?.blur()');
  const last = operation.locator('.responses-table tr.response[data-code="200"]');
  const box = await last.boundingBox();
  if (box === null) throw new Error('the 200 response is not on the page');
  await page.screenshot({
    path: target,
    fullPage: true,
    clip: { x: 0, y: 0, width: 1200, height: Math.ceil(box.y + box.height) },
  });
  console.log(`Wrote ${target}`);
} finally {
  await browser.close();
  await app.close();
}
