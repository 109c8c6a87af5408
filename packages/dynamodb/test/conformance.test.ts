import { describeReplayStoreConformance, describeStoreConformance } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  dynamoDbReplayStore,
  dynamoDbStore,
  type DynamoDbClientLike,
  type DynamoDbReplayStore,
  type DynamoDbStoreBase,
} from '../src/index';
import {
  documentClient,
  lowLevelClient,
  startDynalite,
  uniqueTable,
  type Dynalite,
} from './services';

describe('the DynamoDB stores on dynalite', () => {
  let server: Dynalite;
  const clients: Record<string, { destroy(): void } & DynamoDbClientLike> = {};

  beforeAll(async () => {
    server = await startDynalite();
    clients['a DynamoDBClient'] = lowLevelClient(server.endpoint);
    clients['a DynamoDBDocumentClient'] = documentClient(server.endpoint);
  });
  afterAll(async () => {
    for (const client of Object.values(clients)) client.destroy();
    await server.close();
  });

  /** A store of `factory` on the named client, in a fresh table. */
  const tableReady =
    <S extends { ensureTable(): Promise<void> }>(
      factory: (options: { client: DynamoDbClientLike; table: string }) => S,
      client: string,
    ) =>
    async (): Promise<S> => {
      const store = factory({
        client: clients[client] as DynamoDbClientLike,
        table: uniqueTable('conformance'),
      });
      await store.ensureTable();
      return store;
    };

  // Another instance of the service: its own client, the same table.
  const peerOf = (store: DynamoDbReplayStore): DynamoDbReplayStore => {
    const client = lowLevelClient(server.endpoint);
    clients[`a peer's client ${Object.keys(clients).length}`] = client;
    return dynamoDbReplayStore({ client, table: store.table });
  };
  const destroy = (store: DynamoDbStoreBase) => store.close();
  for (const name of ['a DynamoDBClient', 'a DynamoDBDocumentClient']) {
    const plants = tableReady(dynamoDbStore, name);
    const replay = tableReady(dynamoDbReplayStore, name);
    describeStoreConformance({ describe, it }, `dynamoDbStore on ${name}`, {
      create: plants,
      destroy,
    });
    const options = { create: replay, createPeer: peerOf, destroy };
    describeReplayStoreConformance({ describe, it }, `dynamoDbReplayStore on ${name}`, options);
  }
});
