import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandOutput,
  type DescribeTableCommandOutput,
  type DescribeTimeToLiveCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { Sender } from './client';

/** The table a store needs: its name, its partition key and, for expiring items, the TTL attribute. */
export interface TableShape {
  readonly table: string;
  readonly key: { readonly name: string; readonly type: 'N' | 'S' };
  /** The sort key, for a table that has one (the outbox's). */
  readonly sort?: { readonly name: string; readonly type: 'N' | 'S' } | undefined;
  readonly ttlAttribute?: string | undefined;
  /** The key of an earlier schema of this table, and where its migration is written. */
  readonly earlier?: { readonly name: string; readonly type: 'N' | 'S'; readonly fix: string };
}

const nameOf = (error: unknown): unknown => (error as { name?: unknown } | null)?.name;

/**
 * Creates the table on demand (pay per request) unless it exists, waits until it is ACTIVE, and
 * turns its TTL on where the endpoint offers it. For development and tests: production tables are
 * the user's, made by CloudFormation, the CDK or Terraform.
 *
 * @throws Error when the table exists with another partition key (naming the migration when it is
 *   the key of the table's earlier schema)
 */
export async function ensureTable(send: Sender, shape: TableShape, waitMs = 60_000): Promise<void> {
  const { table, key, sort } = shape;
  const keys = sort === undefined ? [key] : [key, sort];
  await send<CreateTableCommandOutput>(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: keys.map((k) => ({ AttributeName: k.name, AttributeType: k.type })),
      KeySchema: keys.map((k, at) => ({
        AttributeName: k.name,
        KeyType: at === 0 ? 'HASH' : 'RANGE',
      })),
      BillingMode: 'PAY_PER_REQUEST',
    }),
  ).catch((error: unknown) => {
    // Another instance created it first, or it was there already.
    if (nameOf(error) !== 'ResourceInUseException') throw error;
  });
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { Table } = await send<DescribeTableCommandOutput>(
      new DescribeTableCommand({ TableName: table }),
    );
    const hash = Table?.KeySchema?.find((element) => element.KeyType === 'HASH')?.AttributeName;
    const type = Table?.AttributeDefinitions?.find((a) => a.AttributeName === hash)?.AttributeType;
    const { earlier } = shape;
    if (earlier !== undefined && hash === earlier.name && type === earlier.type) {
      throw new Error(
        `The DynamoDB table ${table} has the key of an earlier schema, ${hash} (${type}), not ` +
          `${key.name} (${key.type}). A table's key cannot change: copy its items into a new table ` +
          `as ${earlier.fix} says, then start again.`,
      );
    }
    const range = Table?.KeySchema?.find((element) => element.KeyType === 'RANGE')?.AttributeName;
    const rangeType = Table?.AttributeDefinitions?.find(
      (a) => a.AttributeName === range,
    )?.AttributeType;
    if (
      hash !== key.name ||
      type !== key.type ||
      range !== sort?.name ||
      (sort !== undefined && rangeType !== sort.type)
    ) {
      const wanted =
        sort === undefined ? 'no sort key' : `the sort key ${sort.name} (${sort.type})`;
      throw new Error(
        `The DynamoDB table ${table} must have the partition key ${key.name} (${key.type}) and ` +
          `${wanted}; it has ${String(hash)} (${String(type)})` +
          (range === undefined ? '.' : ` and ${range} (${String(rangeType)}).`),
      );
    }
    if (Table?.TableStatus === 'ACTIVE') break;
    if (Date.now() > deadline)
      throw new Error(`The DynamoDB table ${table} did not become ACTIVE.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (shape.ttlAttribute !== undefined) await enableTtl(send, table, shape.ttlAttribute);
}

/** Turns on TTL on `attribute` unless it is on already; an endpoint without TTL is tolerated. */
async function enableTtl(send: Sender, table: string, attribute: string): Promise<void> {
  try {
    const { TimeToLiveDescription: ttl } = await send<DescribeTimeToLiveCommandOutput>(
      new DescribeTimeToLiveCommand({ TableName: table }),
    );
    const status = ttl?.TimeToLiveStatus;
    if (ttl?.AttributeName === attribute && (status === 'ENABLED' || status === 'ENABLING')) return;
    await send(
      new UpdateTimeToLiveCommand({
        TableName: table,
        TimeToLiveSpecification: { AttributeName: attribute, Enabled: true },
      }),
    );
  } catch (error) {
    // dynalite and some other emulators have no UpdateTimeToLive. The stores do not rely on TTL:
    // they judge expiry on every read, and TTL only clears what has expired.
    if (nameOf(error) !== 'UnknownOperationException') throw error;
  }
}
