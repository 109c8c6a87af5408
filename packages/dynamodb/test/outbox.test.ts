import { describeOutboxConformance } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dynamoDbStore, type DynamoDbClientLike, type DynamoDbStore } from '../src/index';
import { motoMissing, startMoto, type Moto } from './moto';
import { lowLevelClient, uniqueTable } from './services';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// moto serves the regions AWS has only.
const AWS_REGION = { region: 'us-east-1' };

vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(motoMissing !== undefined)(
  `the DynamoDB outbox on moto ${motoMissing ?? ''}`,
  () => {
    let server: Moto;
    const clients: Record<string, { destroy(): void } & DynamoDbClientLike> = {};

    beforeAll(async () => {
      server = await startMoto();
      clients['a DynamoDBClient'] = lowLevelClient(server.endpoint, AWS_REGION);
      clients['a DynamoDBDocumentClient'] = DynamoDBDocumentClient.from(
        lowLevelClient(server.endpoint, AWS_REGION),
      );
    }, 90_000);
    afterAll(async () => {
      for (const client of Object.values(clients)) client.destroy();
      await server?.close();
    });

    for (const name of ['a DynamoDBClient', 'a DynamoDBDocumentClient']) {
      describeOutboxConformance<DynamoDbStore>({ describe, it }, `dynamoDbStore on ${name}`, {
        create: async () => {
          const client = clients[name] as DynamoDbClientLike;
          const store = dynamoDbStore({ client, table: uniqueTable('outbox') });
          await store.ensureSchema();
          return store;
        },
        // Another instance of the service: its own client, the same tables.
        createPeer: (store) => {
          const client = lowLevelClient(server.endpoint, AWS_REGION);
          clients[`a peer's client ${Object.keys(clients).length}`] = client;
          return dynamoDbStore({ client, table: store.table });
        },
        destroy: (store) => store.close(),
      });
    }

    it('creates the outbox table beside the plants table, with the sort key its queues need', async () => {
      const client = clients['a DynamoDBClient'] as DynamoDbClientLike;
      const store = dynamoDbStore({ client, table: uniqueTable('outbox') });
      await store.ensureSchema();
      await store.ensureSchema();
      expect(store.eventsTable).toBe(`${store.table}.events`);
      const plantsOnly = dynamoDbStore({ client, table: store.eventsTable });
      await expect(plantsOnly.ensureSchema()).rejects.toThrow(
        `The DynamoDB table ${store.eventsTable} must have the partition key pk (S) and no sort key; it has pk (S) and sk (S).`,
      );
      await store.close();
    });
  },
);
