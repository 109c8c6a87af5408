import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  createNodeHandler,
  createPlantService,
  type PlantServiceError,
  type PlantStore,
} from '@plantstore/core';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, offlineClient } from './redis-test-clients';

// docs/stores/custom-store.md §4: a custom store need not map its driver's outage errors; the core
// answers them 503 with Retry-After. Each case makes the real driver fail as it does in an outage
// (a port where nothing listens, a server that hangs up at once) and lets its error through.

/** A server that accepts each connection and closes it, as a database shutting down. */
let hangUp: Server;
let hangUpPort: number;
beforeAll(async () => {
  hangUp = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
  hangUpPort = (hangUp.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => hangUp.close(() => resolve())));

/** POSTs one plant through the core on a store whose every insert fails as `fail` does. */
async function answerTo(fail: () => Promise<unknown>) {
  const errors: PlantServiceError[] = [];
  const store: PlantStore = {
    async insert() {
      await fail();
      return { created: true };
    },
  };
  const service = createPlantService({
    store,
    auth: { verify: () => Promise.resolve({ subject: 'gardener', scopes: [], claims: {} }) },
    onError: (error) => void errors.push(error),
    logger: false,
  });
  const server = createHttpServer(createNodeHandler(service));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
      body: '{"id":1,"name":"Fern"}',
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.json(),
      code: errors[0]?.code,
      cause: errors[0]?.cause,
    };
  } finally {
    server.close();
    await service.close();
  }
}

const UNAVAILABLE = {
  status: 503,
  retryAfter: '5',
  body: { error: 503, message: 'The service is temporarily unavailable; retry later.' },
  code: 'store_unavailable',
};

describe('a custom store that lets its driver errors through', () => {
  it('answers 503 when node-redis is offline (ClientClosedError)', async () => {
    const client = await offlineClient();
    const answer = await answerTo(() => client.set('plant', 'x'));
    expect(answer).toMatchObject(UNAVAILABLE);
    expect((answer.cause as Error).constructor.name).toBe('ClientClosedError');
  });

  it('answers 503 when ioredis gives up retrying (MaxRetriesPerRequestError)', async () => {
    const client = new Redis(await closedPort(), '127.0.0.1', {
      maxRetriesPerRequest: 1,
      retryStrategy: () => 10,
    });
    client.on('error', () => undefined);
    try {
      const answer = await answerTo(() => client.set('plant', 'x'));
      expect(answer).toMatchObject(UNAVAILABLE);
      expect((answer.cause as Error).name).toBe('MaxRetriesPerRequestError');
    } finally {
      client.disconnect();
    }
  });

  it('answers 503 when MongoDB cannot select a server (MongoServerSelectionError)', async () => {
    const client = new MongoClient(`mongodb://127.0.0.1:${await closedPort()}`, {
      serverSelectionTimeoutMS: 200,
    });
    try {
      const answer = await answerTo(() => client.db('garden').collection('plants').insertOne({}));
      expect(answer).toMatchObject(UNAVAILABLE);
      expect((answer.cause as Error).name).toBe('MongoServerSelectionError');
    } finally {
      await client.close();
    }
  });

  it('answers 503 when the MySQL server hangs up (mysql2 PROTOCOL_CONNECTION_LOST)', async () => {
    const answer = await answerTo(async () => {
      const connection = await mysql.createConnection({ host: '127.0.0.1', port: hangUpPort });
      await connection.end();
    });
    expect(answer).toMatchObject(UNAVAILABLE);
    expect((answer.cause as { code?: string }).code).toBe('PROTOCOL_CONNECTION_LOST');
  });
});
