import {
  GetItemCommand,
  PutItemCommand,
  type GetItemCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type {
  Cancellation,
  InsertResult,
  NewPlant,
  PlantStore,
  StoreContext,
} from '@plantstore/core';
import { abortError } from './client';
import { ensureTable } from './ensure-table';
import { storeParts, type DynamoDbStoreBase, type DynamoDbTableOptions } from './store-base';
import { plantItem, plantKey, plantOfItem } from './plant-item';

/** Options of {@link dynamoDbStore}: the client, and the table (partition key `id`, N; default `plants`). */
export type DynamoDbStoreOptions = DynamoDbTableOptions;

/** A {@link PlantStore} on DynamoDB. */
export interface DynamoDbStore extends Omit<PlantStore, 'ready' | 'close'>, DynamoDbStoreBase {}

const CREATED: InsertResult = Object.freeze({ created: true });
const NOT_EXISTS = 'attribute_not_exists(id)';
const PROJECTION = {
  ProjectionExpression: 'id, #name, tag',
  ExpressionAttributeNames: { '#name': 'name' },
};

/**
 * A {@link PlantStore} on Amazon DynamoDB, through the AWS SDK v3 client the caller injects.
 *
 * `insert` is one conditional `PutItem` (`attribute_not_exists(id)`): DynamoDB lets exactly one of
 * concurrent puts of an id through. A put refused by the condition is followed by a strongly
 * consistent `GetItem` of the stored plant (the old item of `ReturnValuesOnConditionCheckFailure`
 * saves it where the endpoint returns one); the core compares it with the request byte for byte.
 * Ids are written as DynamoDB numbers in exact decimal text, never through a JavaScript number.
 *
 * The store time-out's signal is the SDK's `abortSignal`. A put aborted, or timed out, after it was
 * sent may still have been applied: the client is answered 503 and its retry is safe (the same
 * plant then answers 200, a replay). Throttling, DynamoDB's 5xx, transaction conflicts and network
 * failures reject with `ServiceUnavailableError` (503, `Retry-After`); a missing table or a
 * validation error as it is (500).
 *
 * @param options - the client and, optionally, the table
 * @returns the store
 * @throws TypeError when `client` has no `send`, `table` is no table name, or an option is unknown
 * @example
 * ```ts
 * import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
 *
 * const store = dynamoDbStore({ client: new DynamoDBClient({}), table: 'plants' });
 * const service = createPlantService({ store, auth: jwtBearer({ jwksUri, issuer, audience }) });
 * ```
 */
export function dynamoDbStore(options: DynamoDbStoreOptions): DynamoDbStore {
  const { table, send, calls, failed } = storeParts('dynamoDbStore', options, 'plants');

  const insertOrRead = async (
    plant: NewPlant,
    { principal, signal }: StoreContext,
    cancelled: Cancellation,
  ) => {
    // An item, once written, is never deleted by the store; if one vanished between the two
    // requests (deleted by hand), the put is tried once more.
    for (let round = 0; round < 2; round += 1) {
      const put = new PutItemCommand({
        TableName: table,
        Item: plantItem(plant, principal.subject),
        ConditionExpression: NOT_EXISTS,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      });
      const refused = await send(put, cancelled, signal).then(
        () => undefined,
        (error: unknown) => {
          if (cancelled.aborted) throw abortError(cancelled);
          const { name, Item } = error as { name?: unknown; Item?: unknown };
          if (name !== 'ConditionalCheckFailedException') return failed(error);
          return { item: Item };
        },
      );
      if (refused === undefined) return CREATED;
      if (refused.item !== undefined)
        return { created: false, existing: plantOfItem(refused.item, plant.id) };
      const get = new GetItemCommand({
        TableName: table,
        Key: plantKey(plant.id),
        ConsistentRead: true,
        ...PROJECTION,
      });
      const { Item } = await send<GetItemCommandOutput>(get, cancelled, signal).catch(failed);
      if (Item !== undefined) return { created: false, existing: plantOfItem(Item, plant.id) };
    }
    throw new Error(`dynamoDbStore: id ${plant.id} was neither written nor found, twice.`);
  };

  return {
    table,
    insert: (plant, context) =>
      calls.run((cancelled) => insertOrRead(plant, context, cancelled), context),
    ensureTable: () => ensureTable(send, { table, key: { name: 'id', type: 'N' } }).catch(failed),
    ready: () =>
      calls.run(async () => {
        await send(
          new GetItemCommand({ TableName: table, Key: plantKey(0n), ...PROJECTION }),
        ).catch(failed);
      }),
    close: () => calls.close(),
  };
}
