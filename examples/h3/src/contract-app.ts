import { bridgedService } from '@plantstore/http-suite/bridged';
import { H3 } from 'h3';

/**
 * The contract suite's host: an h3 app with the route mounted as the example mounts it, whose every
 * other request reaches the app's own catch-all (`host:<METHOD> <path>`), and the suite's store and
 * hooks reached through the bridge its test opened.
 *
 * @returns the app
 */
export function createContractApp(): H3 {
  const { service, settled } = bridgedService(process.env, '/api');
  const app = new H3();
  app.post('/api/plants', async (event) => {
    const response = await service.fetch(event.req);
    await settled(); // the suite reads hook calls as soon as it has the answer
    return response;
  });
  // The RFC 9728 metadata at the root, when the suite turns it on: the fetch entry answers it.
  for (const path of service.resourceMetadata?.paths ?? []) {
    app.all(path, (event) => service.fetch(event.req));
  }
  app.all('/**', (event) => `host:${event.req.method} ${event.url.pathname}`);
  return app;
}
