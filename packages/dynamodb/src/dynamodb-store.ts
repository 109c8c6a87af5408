import {
  GetItemCommand,
  PutItemCommand,
  type GetItemCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { Cancellation, PlantRecord, PlantStore, StoreContext } from '@plantstore/core';
import { insertOrRead, type EventOutbox } from '@plantstore/core/store-kit';
import { ensureTable } from './ensure-table';
import { dynamoDbOutbox } from './events/dynamodb-outbox';
import { putWithEvent } from './events/write-with-event';
import { storeParts, type DynamoDbStoreBase, type DynamoDbTableOptions } from './store-base';
import { PLANT_KEY, PLANT_PROJECTION, plantItem, plantKey, plantOfItem } from './plant-item';

/** Options of {@link dynamoDbStore}: the client, and the table (partition key `pk`, S; default `plants`). */
export type DynamoDbStoreOptions = DynamoDbTableOptions;

/** A {@link PlantStore} on DynamoDB. */
export interface DynamoDbStore
  extends Omit<PlantStore, 'ready' | 'close' | 'outbox'>, DynamoDbStoreBase {
  /** The events written with the plants (the service's `events` option), for the relay. */
  readonly outbox: EventOutbox;
  /** The outbox table's name: the plants table's, then `.events`. */
  readonly eventsTable: string;
}

const NOT_EXISTS = `attribute_not_exists(${PLANT_KEY})`;
const EVENTS_KEY = { name: 'pk', type: 'S' } as const;
const EVENTS_SORT = { name: 'sk', type: 'S' } as const;
// The key of the table before plants kept their tenant: ensureSchema() names the migration.
const EARLIER = {
  name: 'id',
  type: 'N',
  fix: 'docs/guides/upgrading.md ("Plants keep their owner and tenant")',
} as const;

/**
 * A {@link PlantStore} on Amazon DynamoDB, through the AWS SDK v3 client the caller injects.
 *
 * The partition key `pk` is `${tenant}#${id}` (the id after the last `#`, so no tenant can spell
 * another's key); the item keeps the id as a number, the plant, and the audit fields of the record.
 * `insert` is one conditional `PutItem` (`attribute_not_exists(pk)`): DynamoDB lets exactly one of
 * concurrent puts of a key through. A put refused by the condition is followed by a strongly
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
  const { table, send, gate, failed } = storeParts('dynamoDbStore', options, 'plants');
  const eventsTable = `${table}.events`;

  const insert = (plant: PlantRecord, { signal, event }: StoreContext, cancelled: Cancellation) =>
    insertOrRead('dynamoDbStore', plant.id, {
      insert: () => {
        const conditional = {
          TableName: table,
          Item: plantItem(plant),
          ConditionExpression: NOT_EXISTS,
        };
        if (event !== undefined) {
          return putWithEvent(send, conditional, eventsTable, event, cancelled, signal, plant.id);
        }
        const put = new PutItemCommand({
          ...conditional,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        return send(put, cancelled, signal).then(
          () => true,
          (error: unknown) => {
            const { name, Item } = error as { name?: unknown; Item?: unknown };
            if (cancelled.aborted || name !== 'ConditionalCheckFailedException') throw error;
            return Item === undefined ? false : plantOfItem(Item, plant.id);
          },
        );
      },
      read: async () => {
        const get = new GetItemCommand({
          TableName: table,
          Key: plantKey(plant.tenant, plant.id),
          ConsistentRead: true,
          ...PLANT_PROJECTION,
        });
        const { Item } = await send<GetItemCommandOutput>(get, cancelled, signal);
        return Item === undefined ? undefined : plantOfItem(Item, plant.id);
      },
    });

  return {
    table,
    eventsTable,
    insert: (plant, context) =>
      gate.call(context, (cancelled) => insert(plant, context, cancelled)),
    outbox: dynamoDbOutbox(send, gate, eventsTable),
    ensureSchema: () =>
      Promise.all([
        ensureTable(send, { table, key: { name: PLANT_KEY, type: 'S' }, earlier: EARLIER }),
        ensureTable(send, { table: eventsTable, key: EVENTS_KEY, sort: EVENTS_SORT }),
      ]).then(() => undefined, failed),
    ready: () =>
      gate.ready((cancelled, signal) =>
        send(
          new GetItemCommand({ TableName: table, Key: plantKey('', 0n), ...PLANT_PROJECTION }),
          cancelled,
          signal,
        ),
      ),
    close: () => gate.close(),
  };
}
