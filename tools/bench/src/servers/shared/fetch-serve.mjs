// The plumbing of the fetch-entry servers on Bun and Deno: each runtime's own server on 127.0.0.1
// port 0, the port announced as the node:http servers do (serve.mjs), SIGTERM handled there too.
import { announce } from './serve.mjs';
import { HOST } from '../../config.mjs';

/**
 * Serves a fetch handler with the runtime's own server: `Bun.serve` or `Deno.serve`.
 *
 * @param {(request: Request) => Response | Promise<Response>} fetch
 */
export function serveFetch(fetch) {
  if (typeof globalThis.Bun !== 'undefined') {
    const server = globalThis.Bun.serve({ port: 0, hostname: HOST, fetch });
    announce(server.port);
  } else if (typeof globalThis.Deno !== 'undefined') {
    globalThis.Deno.serve(
      { port: 0, hostname: HOST, onListen: ({ port }) => announce(port) },
      fetch,
    );
  } else throw new Error('serveFetch runs under Bun or Deno');
}
