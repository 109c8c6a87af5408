import { connect } from 'node:net';
import { jwtBearer, memoryStore, type MemoryStore } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import type { ContractHost } from '@plantstore/http-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts } from './hosts';

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

describe.each(Object.keys(hosts))('headers after the first thousand, on %s', (name) => {
  let issuer: TokenIssuer;
  let host: ContractHost;
  let store: MemoryStore;

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
  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  it('sees a Content-Encoding sent after 1000 filler headers, and answers 415', async () => {
    const url = new URL(`${host.url}/plants`);
    const body = '{"id":1,"name":"Fern"}';
    const fillers = Array.from({ length: 1000 }, (_, n) => `x-filler-${n}: a\r\n`).join('');
    const head =
      `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\n` +
      `authorization: Bearer ${await issuer.sign()}\r\ncontent-type: application/json\r\n` +
      `${fillers}content-encoding: gzip\r\ncontent-length: ${body.length}\r\n`;
    expect(await statusOf(url, head, body)).toBe('HTTP/1.1 415 Unsupported Media Type');
    expect(store.size).toBe(0);
  });
});
