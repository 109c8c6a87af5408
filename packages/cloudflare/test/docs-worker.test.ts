import { InvalidDpopProofError } from '@plantstore/core';
import { createDpopClient, createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from './support/bundle-worker';
import { type RunningWorker, startWorker } from './support/start-worker';

// The Worker of docs/hosts/cloudflare-workers.md, whole, in workerd without nodejs_compat: the route on D1, the
// DPoP proofs' replay store on its Durable Object, the key set fetched by the Worker from the test
// issuer on 127.0.0.1. Both stores run inside workerd here, as they do deployed.
const PUBLIC_URL = 'https://plants.example.workers.dev';
const PLANT = '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}';

describe("docs/hosts/cloudflare-workers.md's Worker on workerd", () => {
  let issuer: TokenIssuer;
  let worker: RunningWorker;

  beforeAll(async () => {
    issuer = await createTokenIssuer();
    worker = await startWorker({
      script: await bundleWorker('docs-worker.ts'),
      nodejsCompat: false,
      bindings: {
        JWKS_URI: issuer.jwksUri,
        ISSUER: issuer.issuer,
        AUDIENCE: issuer.audience,
        PUBLIC_URL,
      },
      more: {
        d1Databases: ['DB'],
        durableObjects: { REPLAY: { className: 'ReplayDurableObject', useSQLite: true } },
      },
    });
    // The migration: schema.sql's statement.
    const { schemaSql } = await import('@plantstore/cloudflare');
    await (await worker.miniflare.getD1Database('DB')).exec(schemaSql());
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await issuer?.close();
  });

  it('creates a plant with a DPoP-bound token into D1, exact past 2^53, and refuses its proof again', async () => {
    const client = await createDpopClient();
    const token = await issuer.sign({ cnf: { jkt: client.jkt } });
    const headers = {
      ...(await client.headers(token, { url: `${PUBLIC_URL}/api/plants` })),
      'content-type': 'application/json',
    };
    const send = () =>
      fetch(`${worker.origin}/api/plants`, { method: 'POST', headers, body: PLANT });

    const created = await send();
    expect(created.status).toBe(200);
    expect(await created.text()).toBe('{"name":"Monstera","tag":"aroid"}');

    const replayed = await send();
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toEqual({
      error: 401,
      message: new InvalidDpopProofError('dpop_proof_replayed', 'The DPoP proof was used before')
        .message,
    });

    const db = await worker.miniflare.getD1Database('DB');
    const row = await db.prepare('SELECT CAST(id AS TEXT) AS id, name, tag FROM plants').first();
    expect(row).toEqual({ id: '9007199254740993', name: 'Monstera', tag: 'aroid' });
  });
});
