import { connect } from 'node:net';

// Requests only a raw socket can send: a body far over the limit written as fast as the server
// takes it, and a head of a thousand headers.

/** The body length the huge request declares. */
export const DECLARED = 64 * 1024 * 1024;
/** What may pass before the server hangs up: socket buffers and a lingering close's 1 MiB, nowhere near 64 MiB. */
export const AT_MOST_WRITTEN = 8 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/** What became of a huge body: the answer's head, how much was written, who ended it. */
export interface HugeBodyOutcome {
  readonly head: string;
  readonly written: number;
  readonly closedBy: 'server' | 'timeout';
}

/**
 * Sends the head of a request (a POST unless told) declaring a 64 MiB body, then writes body bytes
 * as fast as the server takes them, until the server closes the connection (or 5 s pass). Returns
 * the answer's head and how much of the body the server accepted.
 */
export function sendHugeBody(
  url: URL,
  headers: Readonly<Record<string, string>>,
  method = 'POST',
): Promise<HugeBodyOutcome> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let head = '';
    let written = 0;
    let settled = false;
    const finish = (closedBy: HugeBodyOutcome['closedBy']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ head, written, closedBy });
    };
    const timer = setTimeout(() => finish('timeout'), 5_000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      if (!head.includes('\r\n\r\n')) head += chunk;
    });
    socket.on('close', () => finish('server'));
    socket.on('error', () => finish('server'));
    const lines = Object.entries({
      host: url.host,
      'content-length': String(DECLARED),
      ...headers,
    });
    socket.write(
      `${method} ${url.pathname} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`,
    );
    const pump = (): void => {
      while (!settled && written < DECLARED) {
        written += CHUNK.length;
        if (!socket.write(CHUNK)) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

/** Sends one raw request and resolves the status line of the answer. */
export function statusLineOf(url: URL, head: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n');
      if (end !== -1) {
        socket.destroy();
        resolve(text.slice(0, end));
      }
    });
    socket.on('error', reject);
    socket.write(`${head}\r\n${body}`);
  });
}
