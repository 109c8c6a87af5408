import { connect } from 'node:net';
import { jwtBearer, memoryStore, type MemoryStore } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import type { ContractHost } from '@plantstore/http-suite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hosts } from './hosts';

const DECLARED = 64 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
// What may pass before the server hangs up: socket buffers on both sides, nowhere near 64 MiB.
const AT_MOST_WRITTEN = 8 * 1024 * 1024;

interface Outcome {
  readonly head: string;
  readonly written: number;
  readonly closedBy: 'server' | 'timeout';
}

/**
 * Sends the head of a POST declaring a 64 MiB body, then writes body bytes as fast as the server takes
 * them, until the server closes the connection (or 5 s pass). Returns the answer's head and how much
 * of the body the server accepted.
 */
function sendHugeBody(url: URL, headers: Readonly<Record<string, string>>): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let head = '';
    let written = 0;
    let settled = false;
    const finish = (closedBy: Outcome['closedBy']) => {
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
      `POST ${url.pathname} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`,
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
function statusOf(url: URL, head: string, body: string): Promise<string> {
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

describe.each(Object.keys(hosts))('requests only a raw socket can send, on %s', (name) => {
  let issuer: TokenIssuer;
  let host: ContractHost;
  let store: MemoryStore;
  let token: string;

  beforeAll(async () => {
    issuer = await createTokenIssuer();
    store = memoryStore();
    host = await hosts[name]!.start({
      store,
      auth: jwtBearer({
        jwksUri: issuer.jwksUri,
        issuer: issuer.issuer,
        audience: issuer.audience,
      }),
    });
  });
  beforeEach(async () => {
    token = await issuer.sign();
  });
  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  it.each([
    ['401 without a token', 401, { 'content-type': 'application/json' }],
    ['415 for another media type', 415, { 'content-type': 'text/plain' }],
  ] as const)(
    'answers %s with Connection: close, and reads no more of it',
    async (_c, status, headers) => {
      const url = new URL(`${host.url}/plants`);
      const extra = status === 415 ? { authorization: `Bearer ${token}` } : {};
      const outcome = await sendHugeBody(url, { ...headers, ...extra });
      expect(outcome.head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `, 'u'));
      expect(outcome.head.toLowerCase()).toContain('\r\nconnection: close\r\n');
      expect(outcome.closedBy).toBe('server');
      expect(outcome.written).toBeLessThan(AT_MOST_WRITTEN);
    },
  );

  it('sees a Content-Encoding sent after 1000 filler headers, and answers 415', async () => {
    const url = new URL(`${host.url}/plants`);
    const body = '{"id":1,"name":"Fern"}';
    const fillers = Array.from({ length: 1000 }, (_, n) => `x-filler-${n}: a\r\n`).join('');
    const head =
      `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\n` +
      `authorization: Bearer ${token}\r\ncontent-type: application/json\r\n` +
      `${fillers}content-encoding: gzip\r\ncontent-length: ${body.length}\r\n`;
    expect(await statusOf(url, head, body)).toBe('HTTP/1.1 415 Unsupported Media Type');
    expect(store.size).toBe(0);
  });
});
