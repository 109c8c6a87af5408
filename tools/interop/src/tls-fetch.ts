import { request } from 'node:https';
import type { ClientTls } from '@plantstore/http-suite';

/**
 * A `fetch` over `node:https` that trusts `tls.ca` and presents `tls.cert` on the TLS connection. Node
 * 20's own fetch takes TLS options only through the `undici` package's `Agent`, which is not a
 * dependency here; the tests need no more of fetch than method, headers, a text body and a signal.
 * One connection per request (no agent), so each request makes its own handshake with its own
 * certificate, and redirects are never followed.
 *
 * @param tls - the CA to trust, and the client certificate and key
 * @returns a fetch for the tests' requests to HTTPS servers of 127.0.0.1
 * @example
 * ```ts
 * const { ca, client } = await testCertificates();
 * const fetchAsClient = tlsFetch({ ca: ca.certPem, cert: client.certPem, key: client.keyPem });
 * await fetchAsClient(`${issuer}/token`, { method: 'POST', headers, body });
 * ```
 */
export function tlsFetch(tls: ClientTls): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = input instanceof Request ? input.url : String(input);
      const headers = Object.fromEntries(new Headers(init.headers));
      const outgoing = request(
        url,
        {
          method: init.method ?? 'GET',
          headers,
          ca: tls.ca,
          ...(tls.cert !== undefined && { cert: tls.cert, key: tls.key }),
          agent: false,
          ...(init.signal != null && { signal: init.signal }),
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const answer = new Headers();
            const raw = incoming.rawHeaders;
            for (let i = 0; i + 1 < raw.length; i += 2)
              answer.append(raw[i] ?? '', raw[i + 1] ?? '');
            const body = chunks.length === 0 ? null : Buffer.concat(chunks);
            resolve(new Response(body, { status: incoming.statusCode ?? 0, headers: answer }));
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(bodyText(init.body));
    });
}

function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return body.toString();
  throw new TypeError('tlsFetch sends a text or form body only');
}
