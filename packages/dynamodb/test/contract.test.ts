import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as express from '@plantstore/express';
import { describeStoreContract } from '@plantstore/http-suite';
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

  // The suite's store is replaced by a DynamoDB store: what it checks was stored is DynamoDB's item.
  describeStoreContract('DynamoDB', { express }, async (): Promise<DynamoDbStore> => {
    const store = dynamoDbStore({ client, table: uniqueTable('http') });
    await store.ensureSchema();
    return store;
  });
});
