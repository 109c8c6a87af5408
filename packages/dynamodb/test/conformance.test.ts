import {
  describeReplayStoreConformance,
  describeStoreConformance,
  silentStoreOn,
} from '@plantstore/core/testing';
import type { SilentStoreOptions } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
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

// A thousand concurrent requests to dynalite, one process on a shared 2-core machine, take seconds
// when other work runs beside the suite (20 s and more with two busy loops): a generous bound.
vi.setConfig({ testTimeout: 120_000 });

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
    <S extends { ensureSchema(): Promise<void> }>(
      factory: (options: { client: DynamoDbClientLike; table: string }) => S,
      client: string,
    ) =>
    async (): Promise<S> => {
      const store = factory({
        client: clients[client] as DynamoDbClientLike,
        table: uniqueTable('conformance'),
      });
      await store.ensureSchema();
      return store;
    };

  // Another instance of the service: its own client, the same table.
  const peerOf = (store: DynamoDbReplayStore): DynamoDbReplayStore => {
    const client = lowLevelClient(server.endpoint);
    clients[`a peer's client ${Object.keys(clients).length}`] = client;
    return dynamoDbReplayStore({ client, table: store.table });
  };
  const destroy = (store: DynamoDbStoreBase) => store.close();
  // The lifecycle's silent store: a client of the kit's silent server, destroyed after the case.
  const onSilentServer = <S extends DynamoDbStoreBase>(
    build: (client: DynamoDbClientLike) => S,
  ): SilentStoreOptions<S> =>
    silentStoreOn(
      ({ host, port }) => lowLevelClient(`http://${host}:${port}`, { maxAttempts: 1 }),
      (client) => client.destroy(),
      build,
    );
  for (const name of ['a DynamoDBClient', 'a DynamoDBDocumentClient']) {
    const plants = tableReady(dynamoDbStore, name);
    const replay = tableReady(dynamoDbReplayStore, name);
    describeStoreConformance({ describe, it }, `dynamoDbStore on ${name}`, {
      create: plants,
      destroy,
      silent: onSilentServer((client) => dynamoDbStore({ client, readyTimeout: 300 })),
    });
    const silent = onSilentServer((client) => dynamoDbReplayStore({ client, readyTimeout: 300 }));
    const options = { create: replay, createPeer: peerOf, destroy, silent };
    describeReplayStoreConformance({ describe, it }, `dynamoDbReplayStore on ${name}`, options);
  }
});
