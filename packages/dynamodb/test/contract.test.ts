import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as express from '@plantstore/express';
import * as fastify from '@plantstore/fastify';
import { describeMountedContract } from '@plantstore/http-suite';
import { latestHostsOn } from '@plantstore/http-suite/hosts';
import { afterAll, beforeAll, describe } from 'vitest';
import { dynamoDbStore, type DynamoDbStore } from '../src/index';
import { lowLevelClient, startDynalite, uniqueTable, type Dynalite } from './services';

describe('the HTTP contract with dynamoDbStore on dynalite', () => {
  let server: Dynalite;
  let client: DynamoDBClient;
  beforeAll(async () => {
    server = await startDynalite();
    client = lowLevelClient(server.endpoint);
  });
  afterAll(async () => {
    client.destroy();
    await server.close();
  });

  const freshStore = async (): Promise<DynamoDbStore> => {
    const store = dynamoDbStore({ client, table: uniqueTable('http') });
    await store.ensureTable();
    return store;
  };
  // The suite's store is replaced by a DynamoDB store: what it checks was stored is DynamoDB's item.
  for (const [major, targetOf] of Object.entries(latestHostsOn({ express, fastify }, freshStore))) {
    describeMountedContract(`${major} on DynamoDB,`, [{ name: 'at /' }], (_at, hooks) =>
      targetOf(hooks),
    );
  }
});
