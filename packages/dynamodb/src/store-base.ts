import { checkKnownOptions } from '@plantstore/core/adapter';
import {
  readyTimeoutOption,
  storeGate,
  type StoreGate,
  type StoreLifecycle,
  type StoreTimeoutOptions,
} from '@plantstore/core/store-kit';
import { senderOf, type DynamoDbClientLike, type Factory, type Sender } from './client';
import { mapDynamoError, type StoreKind } from './map-error';
import { tableOption } from './options';

/** Options of both stores: the client, and the table when it is not the store's default. */
export interface DynamoDbTableOptions extends StoreTimeoutOptions {
  /** A `DynamoDBClient` or a `DynamoDBDocumentClient` of the AWS SDK v3; the caller destroys it. */
  readonly client: DynamoDbClientLike;
  /** The table's name (3 to 255 of `a-z A-Z 0-9 _ - .`). */
  readonly table?: string | undefined;
}

/**
 * What both DynamoDB stores have besides their own primitive: `table`, the table's name;
 * `ensureSchema()`, for development and tests, which creates the table on demand unless it exists
 * and waits until it is ACTIVE (the replay store also turns TTL on where the endpoint has it;
 * production tables are the user's, see the README), rejecting with an `Error` when the table has
 * another key; `ready()`, for readiness probes, a read of the table (503 when DynamoDB does not
 * answer within `readyTimeout`, default 5 s); `close()`, which refuses new calls (503) and waits
 * for those under way.
 */
export type DynamoDbStoreBase = { readonly table: string } & StoreLifecycle &
  Readonly<Record<'ensureSchema', () => Promise<void>>>;

/** What each store's factory builds first from its options. */
export interface StoreParts {
  readonly table: string;
  readonly send: Sender;
  readonly gate: StoreGate;
  /** Rethrows an SDK failure as the store answers it (a 503 when transient). */
  readonly failed: (error: unknown) => never;
}

const OPTIONS: ReadonlySet<string> = new Set(['client', 'table', 'readyTimeout']);
const STORES: Readonly<
  Record<Factory, [StoreKind, 'store_unavailable' | 'replay_store_unavailable', string]>
> = {
  dynamoDbStore: ['plants', 'store_unavailable', 'The DynamoDB store'],
  dynamoDbReplayStore: ['replay', 'replay_store_unavailable', 'The DynamoDB replay store'],
};

/**
 * Checks a factory's options and builds what its store runs on.
 *
 * @throws TypeError when an option is unknown, the client has no `send`, or the table is no name
 */
export function storeParts(
  factory: Factory,
  options: DynamoDbTableOptions,
  defaultTable: string,
): StoreParts {
  checkKnownOptions(factory, options, OPTIONS);
  const [kind, code, what] = STORES[factory];
  const readyTimeout = readyTimeoutOption(factory, options.readyTimeout);
  const mapError = (error: unknown): Error => mapDynamoError(error, kind);
  return {
    table: tableOption(factory, options.table, defaultTable),
    send: senderOf(options.client, factory),
    gate: storeGate({ code, what, readyTimeout, mapError }),
    failed: (error) => {
      throw mapError(error);
    },
  };
}
