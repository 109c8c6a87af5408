import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { ReplayContext, ReplayStore } from '@plantstore/core';
import { gatedRemember, type RememberStep } from '@plantstore/core/store-kit';
import { ensureTable } from './ensure-table';
import { storeParts, type DynamoDbStoreBase, type DynamoDbTableOptions } from './store-base';

/**
 * Options of {@link dynamoDbReplayStore}: the client (the plant store's serves both), and the table
 * (partition key `proofKey`, S; default `plantstore_dpop_replay`).
 */
export type DynamoDbReplayStoreOptions = DynamoDbTableOptions;

/** A {@link ReplayStore} on DynamoDB. */
export interface DynamoDbReplayStore
  extends Omit<ReplayStore, 'ready' | 'close'>, DynamoDbStoreBase {}

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
 * const auth = jwtBearer({ jwksUri, issuer, audience, dpop: dpopBinding({ replayStore }) });
 * ```
 */
export function dynamoDbReplayStore(options: DynamoDbReplayStoreOptions): DynamoDbReplayStore {
  const parts = storeParts('dynamoDbReplayStore', options, 'plantstore_dpop_replay');
  const { table, send, gate, failed } = parts;

  const remember: RememberStep<ReplayContext> = async (key, expiresAt, context, cancelled) => {
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
        const refused = (error as { name?: unknown }).name === 'ConditionalCheckFailedException';
        if (cancelled.aborted || !refused) throw error;
        return false;
      },
    );
  };

  return {
    table,
    remember: gatedRemember(gate, remember),
    ensureSchema: () =>
      ensureTable(send, {
        table,
        key: { name: 'proofKey', type: 'S' },
        ttlAttribute: 'expiresAt',
      }).catch(failed),
    ready: () =>
      gate.ready((cancelled, signal) => {
        const key = { proofKey: { S: 'plantstore:ready' } };
        return send(new GetItemCommand({ TableName: table, Key: key }), cancelled, signal);
      }),
    close: () => gate.close(),
  };
}

/** Epoch time as decimal text, refusing what is none. */
function epoch(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  throw new TypeError(`dynamoDbReplayStore: times must be epoch milliseconds; received ${value}.`);
}
