import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

describe('the node:http example', () => {
  let idp: TokenIssuer;
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    idp = await createTokenIssuer();
    const plants = createPlantService({
      store: memoryStore(),
      auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
    });
    const server = createApp(plants).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => {
      server.close();
      server.closeAllConnections();
    };
  });

  afterAll(async () => {
    close();
    await idp.close();
  });

  it('creates a plant with an exact int64 id through the mounted route', async () => {
    const response = await fetch(`${base}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await idp.sign()}`, 'content-type': 'application/json' },
      body: '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}',
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"name":"Monstera","tag":"aroid"}');
  });

  it("keeps the host's own routes working", async () => {
    const response = await fetch(`${base}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
