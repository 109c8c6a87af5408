import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { cancellation, type ReplayContext, type ReplayStore } from '@plantstore/core';
import { abortError, senderOf, type DynamoDbClientLike } from './client';
import { ensureTable } from './ensure-table';
import { InFlight } from './in-flight';
import { mapDynamoError } from './map-error';
import { knownOptions, tableOption } from './options';

/** Options of {@link dynamoDbReplayStore}. */
export interface DynamoDbReplayStoreOptions {
  /** A `DynamoDBClient` or a `DynamoDBDocumentClient`; the plant store's client serves both. */
  readonly client: DynamoDbClientLike;
  /** The table, its partition key `proofKey` of type S; default `plantstore_dpop_replay`. */
  readonly table?: string | undefined;
}

/** A {@link ReplayStore} on DynamoDB. */
export interface DynamoDbReplayStore extends ReplayStore {
  /** The table's name. */
  readonly table: string;
  /**
   * For development and tests: creates the table on demand unless it exists, waits until it is
   * ACTIVE and turns TTL on `expiresAt` on where the endpoint supports it.
   *
   * @throws Error when the table exists with another key
   */
  ensureTable(): Promise<void>;
  /** For readiness probes: resolves once DynamoDB answered a read of the table. */
  ready(): Promise<void>;
  /** Refuses new calls (503) and waits for those under way; the client stays the caller's. */
  close(): Promise<void>;
}

// A key is held while its exact expiry (milliseconds) is after the service's now. TTL deletes items
// on `expiresAt` (seconds, as TTL wants them) up to days late, so it only clears; it never decides.
const FREE = 'attribute_not_exists(proofKey) OR expiresAtMs <= :now';

/**
 * A {@link ReplayStore} on Amazon DynamoDB for DPoP proof replay protection (RFC 9449 §11.1), shared
 * by every instance of the service. `remember` is one conditional `PutItem` that writes the key
 * unless it is held and unexpired, so exactly one of concurrent calls with a key succeeds. Each item
 * carries `expiresAt` (epoch seconds, rounded up) for the table's TTL and `expiresAtMs` for the
 * exact judgement, by `context.now`, never DynamoDB's clock. Failures answer as in `dynamoDbStore`,
 * with the code `replay_store_unavailable`.
 *
 * @param options - the client and, optionally, the table
 * @returns the store
 * @throws TypeError when `client` has no `send`, `table` is no table name, or an option is unknown
 * @example
 * ```ts
 * const replayStore = dynamoDbReplayStore({ client, table: 'plantstore_dpop_replay' });
 * const auth = jwtBearer({ jwksUri, issuer, audience, dpop: { replayStore } });
 * ```
 */
export function dynamoDbReplayStore(options: DynamoDbReplayStoreOptions): DynamoDbReplayStore {
  const factory = 'dynamoDbReplayStore';
  const checked = knownOptions<DynamoDbReplayStoreOptions>(factory, options, ['client', 'table']);
  const table = tableOption(factory, checked.table, 'plantstore_dpop_replay');
  const send = senderOf(checked.client, factory);
  const calls = new InFlight('replay_store_unavailable', 'The DynamoDB replay store');
  const failed = (error: unknown): never => {
    throw mapDynamoError(error, 'replay');
  };

  const remember = async (key: string, expiresAt: number, context: ReplayContext) => {
    const cancelled = cancellation(context);
    const until = Math.ceil(expiresAt);
    const put = new PutItemCommand({
      TableName: table,
      Item: {
        proofKey: { S: key },
        expiresAt: { N: epoch(Math.ceil(until / 1000)) },
        expiresAtMs: { N: epoch(until) },
      },
      ConditionExpression: FREE,
      ExpressionAttributeValues: { ':now': { N: epoch(Math.floor(context.now)) } },
    });
    return send(put, cancelled, context.signal).then(
      () => true,
      (error: unknown) => {
        if (cancelled.aborted) throw abortError(cancelled);
        if ((error as { name?: unknown }).name === 'ConditionalCheckFailedException') return false;
        return failed(error);
      },
    );
  };

  return {
    table,
    remember(key, expiresAt, context) {
      const cancelled = cancellation(context);
      if (cancelled.aborted) return Promise.reject(abortError(cancelled));
      return calls.run(() => remember(key, expiresAt, context));
    },
    ensureTable: () =>
      ensureTable(send, {
        table,
        key: { name: 'proofKey', type: 'S' },
        ttlAttribute: 'expiresAt',
      }).catch(failed),
    ready: () =>
      calls.run(async () => {
        const key = { proofKey: { S: 'plantstore:ready' } };
        await send(new GetItemCommand({ TableName: table, Key: key })).catch(failed);
      }),
    close: () => calls.close(),
  };
}

/** Epoch time as decimal text, refusing what is none. */
function epoch(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  throw new TypeError(`dynamoDbReplayStore: times must be epoch milliseconds; received ${value}.`);
}
