import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';

/** What came back, with lower-case header names. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: unknown;
}

/** A request of the suite; header values may be arrays to send a header more than once. */
export interface Outgoing {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: string | Uint8Array;
  /** Write the headers and this part of the body, then stall without ending the request. */
  readonly stallAfter?: string | Uint8Array;
}

/**
 * Sends one request with `node:http`, which (unlike fetch) can repeat headers, stall, and send any
 * bytes, and waits for the answer.
 */
export function send(baseUrl: string, outgoing: Outgoing): Promise<Reply> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: outgoing.method ?? 'POST',
        path: `${url.pathname.replace(/\/$/, '')}${outgoing.path ?? '/plants'}`,
        headers: outgoing.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          req.destroy();
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (outgoing.stallAfter !== undefined) {
      req.write(outgoing.stallAfter);
      req.flushHeaders();
    } else {
      req.end(outgoing.body);
    }
  });
}
