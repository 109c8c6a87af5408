import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createNodeHandler,
  createPlantService,
  dpopBinding,
  jwtBearer,
  memoryStore,
} from '@plantstore/core';
import {
  createDpopClient,
  createTokenIssuer,
  serviceUrl,
  type DpopClient,
  type TokenIssuer,
} from '@plantstore/core/testing';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresReplayStore } from '../src/index';
import { uniqueTable } from './services';

const databaseUrl = serviceUrl(
  { it },
  'DATABASE_URL',
  'DPoP over HTTP with the PostgreSQL replay store',
  'postgres://postgres@127.0.0.1:5432/test',
);

const PUBLIC = 'https://api.example.com';

describe.skipIf(databaseUrl === undefined)(
  'DPoP over HTTP, two instances sharing postgresReplayStore',
  () => {
    const table = uniqueTable('dpop_http');
    let issuer: TokenIssuer;
    let client: DpopClient;
    const pools: Pool[] = [];
    const servers: Server[] = [];
    const urls: string[] = [];

    beforeAll(async () => {
      [issuer, client] = await Promise.all([createTokenIssuer(), createDpopClient()]);
      // Two instances of the service, each with its own pool, as two processes behind a balancer.
      for (let i = 0; i < 2; i += 1) {
        const pool = new Pool({ connectionString: databaseUrl, max: 2 });
        pools.push(pool);
        const service = createPlantService({
          store: memoryStore(),
          auth: jwtBearer({
            ...issuer.jwtBearerOptions,
            dpop: dpopBinding({ replayStore: postgresReplayStore({ client: pool, table }) }),
          }),
          publicUrl: PUBLIC,
        });
        const server = createServer(createNodeHandler(service));
        servers.push(server);
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      }
    });

    afterAll(async () => {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      await pools[0]?.query(`DROP TABLE IF EXISTS ${table}`);
      await Promise.all(pools.map((pool) => pool.end()));
      await issuer.close();
    });

    const post = async (url: string, headers: Record<string, string>, id: number) => {
      const response = await fetch(`${url}/plants`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ id, name: 'Fern' }),
      });
      return {
        status: response.status,
        challenge: response.headers.get('www-authenticate'),
        body: await response.json(),
      };
    };

    it('accepts a proof once across both instances, and refuses it on the other', async () => {
      const token = await issuer.sign({}, { boundTo: client });
      const headers = await client.headers(token, { url: `${PUBLIC}/plants` });
      expect(await post(urls[0] ?? '', headers, 1)).toStrictEqual({
        status: 200,
        challenge: null,
        body: { name: 'Fern' },
      });
      const replayed = await post(urls[1] ?? '', headers, 2);
      expect(replayed.status).toBe(401);
      expect(replayed.challenge).toContain(
        'error="invalid_dpop_proof", error_description="The DPoP proof was used before"',
      );
      expect(replayed.body).toStrictEqual({
        error: 401,
        message: 'The DPoP proof is not valid: The DPoP proof was used before',
      });
    });

    it('of twenty concurrent sends of one proof to both instances, exactly one is accepted', async () => {
      const token = await issuer.sign({}, { boundTo: client });
      const headers = await client.headers(token, { url: `${PUBLIC}/plants` });
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) => post(urls[i % 2] ?? '', headers, 100 + i)),
      );
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
      expect(replies.filter((reply) => reply.status === 401)).toHaveLength(19);
    });
  },
);
