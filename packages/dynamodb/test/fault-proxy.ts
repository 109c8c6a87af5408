import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with each request: pass it on; answer a DynamoDB error of its own (`status`,
 * `type`) without passing it on; pass it on and hold DynamoDB's answer for `ms`; or reset the
 * connection.
 */
export type ProxyMode =
  | { readonly kind: 'pass' }
  | { readonly kind: 'error'; readonly status: number; readonly type: string }
  | { readonly kind: 'late'; readonly ms: number }
  | { readonly kind: 'reset' };

/** A proxy in front of dynalite, so the real SDK meets real HTTP failures. */
export interface FaultProxy {
  readonly endpoint: string;
  mode: ProxyMode;
  /** The requests that reached the proxy, by DynamoDB operation. */
  readonly seen: Map<string, number>;
  close(): Promise<void>;
}

/** Starts a proxy to `target` on a free port of 127.0.0.1, passing everything on at first. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const proxy: FaultProxy = {
    endpoint: '',
    mode: { kind: 'pass' },
    seen: new Map(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const forward = (incoming: IncomingMessage, body: Buffer, answer: (reply: Reply) => void) => {
    const outgoing = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          answer({
            status: response.statusCode ?? 500,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    outgoing.end(body);
  };
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    proxy.seen.set(operation, (proxy.seen.get(operation) ?? 0) + 1);
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const { mode } = proxy;
      const send = ({ status, headers, body }: Reply) => {
        if (!response.destroyed) response.writeHead(status, headers).end(body);
      };
      if (mode.kind === 'reset') return void response.socket?.destroy();
      if (mode.kind === 'error') {
        const body = JSON.stringify({
          __type: `com.amazonaws.dynamodb.v20120810#${mode.type}`,
          message: 'from the fault proxy',
        });
        return send({
          status: mode.status,
          headers: { 'content-type': 'application/x-amz-json-1.0' },
          body: Buffer.from(body),
        });
      }
      forward(incoming, Buffer.concat(chunks), (reply) => {
        if (mode.kind === 'late') setTimeout(() => send(reply), mode.ms).unref();
        else send(reply);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(proxy, {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
}

interface Reply {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}
