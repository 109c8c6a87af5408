import { bridgedService } from '@plantstore/http-suite/bridged';
import { type AnyElysia, Elysia } from 'elysia';

/**
 * The contract suite's host: an Elysia app with the route mounted as the example mounts it (body
 * parsing off), whose every other request reaches the app's own catch-all (`host:<METHOD> <path>`),
 * and the suite's store and hooks reached through the bridge its test opened.
 *
 * @returns the app
 */
export function createContractApp(): AnyElysia {
  const { service, settled } = bridgedService(process.env, '/api');
  // An app-wide hook that reads `body`, as a request logger might: Elysia then parses every body
  // before its handler, except on the routes with `parse: 'none'`, whose body stays unread.
  const app = new Elysia()
    .onBeforeHandle(({ body }) => void body)
    .post(
      '/api/plants',
      async ({ request }) => {
        const response = await service.fetch(request);
        await settled(); // the suite reads hook calls as soon as it has the answer
        return response;
      },
      { parse: 'none' },
    );
  // The RFC 9728 metadata at the root, when the suite turns it on: the fetch entry answers it.
  for (const path of service.resourceMetadata?.paths ?? []) {
    app.all(path, ({ request }) => service.fetch(request), { parse: 'none' });
  }
  return app.all('*', ({ request, path }) => `host:${request.method} ${path}`, { parse: 'none' });
}
