import { bridgedService } from '@plantstore/http-suite/bridged';
import { Hono } from 'hono';

/**
 * The contract suite's host: a Hono app with the route mounted as the example mounts it, whose every
 * other request reaches the app's own catch-all (`host:<METHOD> <path>`), and the suite's store and
 * hooks reached through the bridge its test opened.
 *
 * @returns the app
 */
export function createContractApp(): Hono {
  const { service, settled } = bridgedService(process.env, '/api');
  const app = new Hono();
  app.post('/api/plants', async (c) => {
    const response = await service.fetch(c.req.raw);
    await settled(); // the suite reads hook calls as soon as it has the answer
    return response;
  });
  // The RFC 9728 metadata at the root, when the suite turns it on: the fetch entry answers it.
  for (const path of service.resourceMetadata?.paths ?? []) {
    app.all(path, (c) => service.fetch(c.req.raw));
  }
  app.all('*', (c) => c.text(`host:${c.req.method} ${c.req.path}`));
  return app;
}
