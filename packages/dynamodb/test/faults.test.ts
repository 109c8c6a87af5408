import { storeRecord } from '@plantstore/core/testing';
import { CreateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createPlantService, type Principal } from '@plantstore/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dynamoDbReplayStore, dynamoDbStore, type DynamoDbStore } from '../src/index';
import { startFaultProxy, type FaultProxy, type ProxyMode } from './fault-proxy';
import { lowLevelClient, startDynalite, uniqueTable, type Dynalite } from './services';

const UNAVAILABLE =
  '{"error":503,"message":"The service is temporarily unavailable; retry later."}';
const gardener: Principal = { subject: 'gardener', scopes: [], claims: {} };

describe('dynamoDbStore when DynamoDB fails, through a proxy in front of dynalite', () => {
  let dynamo: Dynalite;
  let proxy: FaultProxy;
  let client: DynamoDBClient;
  let store: DynamoDbStore;
  const errors: string[] = [];

  beforeAll(async () => {
    dynamo = await startDynalite();
    proxy = await startFaultProxy(dynamo.endpoint);
    // The SDK's own retries (3 attempts, backoff) stay on, as users have them.
    client = lowLevelClient(proxy.endpoint);
    store = dynamoDbStore({ client, table: uniqueTable('faults') });
    await store.ensureSchema();
  });
  afterAll(async () => {
    client.destroy();
    await proxy.close();
    await dynamo.close();
  });
  beforeEach(() => {
    proxy.mode = { kind: 'pass' };
    proxy.seen.clear();
    errors.length = 0;
  });

  const service = (storeTimeout: number) =>
    createPlantService({
      store,
      storeTimeout,
      retryAfter: 1,
      auth: { verify: (token) => Promise.resolve(token === 'good' ? gardener : undefined) },
      onError: (error) => void errors.push(error.code),
    });
  const post = async (body: string, storeTimeout = 10_000) => {
    const response = await service(storeTimeout).fetch(
      new Request('http://host/plants', {
        method: 'POST',
        headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
        body,
      }),
    );
    const { status } = response;
    return { status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
  };

  const transient: [string, ProxyMode][] = [
    ['ThrottlingException', { kind: 'error', status: 400, type: 'ThrottlingException' }],
    [
      'ProvisionedThroughputExceededException',
      { kind: 'error', status: 400, type: 'ProvisionedThroughputExceededException' },
    ],
    ['RequestLimitExceeded', { kind: 'error', status: 400, type: 'RequestLimitExceeded' }],
    [
      'TransactionConflictException',
      { kind: 'error', status: 400, type: 'TransactionConflictException' },
    ],
    ['InternalServerError (500)', { kind: 'error', status: 500, type: 'InternalServerError' }],
    ['ServiceUnavailable (503)', { kind: 'error', status: 503, type: 'ServiceUnavailable' }],
    ['a connection reset', { kind: 'reset' }],
  ];
  for (const [index, [what, mode]] of transient.entries()) {
    it(`answers 503 with Retry-After on ${what}, and 200 once DynamoDB answers again`, async () => {
      const body = `{"id":${9_000 + index},"name":"Fern"}`;
      proxy.mode = mode;
      expect(await post(body)).toEqual({
        status: 503,
        retryAfter: '1',
        body: UNAVAILABLE,
      });
      expect(errors).toEqual(['store_unavailable']);
      proxy.mode = { kind: 'pass' };
      expect((await post(body)).status).toBe(200);
    }, 60_000);
  }

  it('answers 503 to a conditional put that timed out after it landed, and 200 to its retry (a replay)', async () => {
    const body = '{"id":9223372036854775807,"name":"Late","tag":""}';
    proxy.mode = { kind: 'late', ms: 1_500 };
    const late = await post(body, 300);
    expect(late.status).toBe(503);
    expect(late.retryAfter).toBe('1');
    expect(late.body).toBe(UNAVAILABLE);
    expect(errors).toEqual(['store_timeout']);
    expect(proxy.seen.get('PutItem')).toBe(1);
    proxy.mode = { kind: 'pass' };
    // The put reached DynamoDB before the time-out: the retry finds the same plant.
    expect(await post(body)).toEqual({
      status: 200,
      retryAfter: null,
      body: '{"name":"Late","tag":""}',
    });
    expect((await post('{"id":9223372036854775807,"name":"Late"}')).status).toBe(409);
  }, 60_000);

  it('answers 500 when the table does not exist', async () => {
    const missing = dynamoDbStore({ client, table: uniqueTable('missing') });
    const controller = new AbortController();
    const error = await missing
      .insert(storeRecord({ id: 1n, name: 'x' }), {
        principal: gardener,
        signal: controller.signal,
      })
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('refuses in ensureSchema() a table of the schema before tenants, naming the migration', async () => {
    // The table of 0.x before issue #49: partition key id (N). A key cannot be altered.
    const table = uniqueTable('earlier');
    await client.send(
      new CreateTableCommand({
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'N' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await expect(dynamoDbStore({ client, table }).ensureSchema()).rejects.toThrow(
      new Error(
        `The DynamoDB table ${table} has the key of an earlier schema, id (N), not pk (S). A ` +
          "table's key cannot change: copy its items into a new table as " +
          'docs/guides/upgrading.md ("Plants keep their owner and tenant") says, then start again.',
      ),
    );
  });

  it('answers 500 to a validation error, and the replay store 503 on throttling', async () => {
    // A table whose key is a string: DynamoDB refuses the number id as a validation error.
    const table = uniqueTable('wrong-key');
    const replay = dynamoDbReplayStore({ client, table });
    await replay.ensureSchema();
    const wrong = dynamoDbStore({ client, table });
    const signal = new AbortController().signal;
    await expect(wrong.ensureSchema()).rejects.toThrow(/partition key pk \(S\)/);
    await expect(
      wrong.insert(storeRecord({ id: 1n, name: 'x' }), { principal: gardener, signal }),
    ).rejects.toMatchObject({
      name: 'ValidationException',
    });
    proxy.mode = { kind: 'error', status: 400, type: 'ThrottlingException' };
    await expect(
      replay.remember('k', Date.now() + 60_000, { now: Date.now(), signal }),
    ).rejects.toMatchObject({
      status: 503,
      code: 'replay_store_unavailable',
    });
  }, 60_000);
});
