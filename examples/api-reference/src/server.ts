import { startApp } from './start-app';

// Development only: plants in memory, and a local identity provider whose token is printed below,
// to paste into the page's "Authorize" dialog and try the route from the page.
const app = await startApp(Number(process.env.PORT ?? 3000));
console.log(`API reference: ${app.url}/docs`);
console.log(`Token for "Authorize" (valid 1 h): ${await app.token('developer')}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close());
}
