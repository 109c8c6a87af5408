import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeHandler } from '../../service/node-handler';
import { createPlantService } from '../../service/service';
import { memoryStore } from '../../plant/memory-store';
import type { Authenticator } from '../authenticator';

/** A local stand-in for a provider's key-set URLs, and a `fetch` that routes those URLs to it. */
export interface ProviderServer {
  /** Pass it as `jwtBearer`'s `fetch`: the provider's real URLs are answered by this server. */
  readonly fetch: typeof fetch;
  /** How many key-set requests each real URL received. */
  readonly requests: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Serves key-set documents over real HTTP on 127.0.0.1, each under the path of its real URL (host
 * included), since the provider itself cannot run here.
 *
 * @param documents - each real URL and its JSON document
 * @returns the server, its `fetch`, and its request counts
 */
export async function serveProvider(
  documents: ReadonlyMap<string, string>,
): Promise<ProviderServer> {
  const requests = new Map<string, number>();
  const server = createServer((request, response) => {
    const real = decodeURIComponent((request.url ?? '/').slice(1));
    const body = documents.get(real);
    requests.set(real, (requests.get(real) ?? 0) + 1);
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  const origin = await listen(server);
  const routed: typeof fetch = (input, init) => {
    const real = input instanceof Request ? input.url : String(input);
    return fetch(`${origin}/${encodeURIComponent(real)}`, init);
  };
  return { fetch: routed, requests, close: () => stop(server) };
}

/** What a request through a real service answered. */
export interface ServiceAnswer {
  readonly status: number;
  readonly challenge: string | null;
  readonly body: string;
}

/**
 * Sends one `POST /plants` with the token through a real `createPlantService` and
 * `createNodeHandler` on 127.0.0.1, then stops the server.
 *
 * @param auth - the authenticator under test
 * @param token - the bearer token
 * @returns the status, the `WWW-Authenticate` header and the body
 */
export async function postPlant(auth: Authenticator, token: string): Promise<ServiceAnswer> {
  const server = createServer(
    createNodeHandler(createPlantService({ store: memoryStore(), auth })),
  );
  try {
    const origin = await listen(server);
    const response = await fetch(`${origin}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"id":1,"name":"Monstera"}',
    });
    const challenge = response.headers.get('www-authenticate');
    return { status: response.status, challenge, body: await response.text() };
  } finally {
    await stop(server);
  }
}
