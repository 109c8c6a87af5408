// DynamoDB for the bench: dynalite in a child process of its own (so the server measured does not
// pay for the emulator's work), a client of the AWS SDK v3 pointed at it, and a table on demand.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { POOL_SIZE } from '../../config.mjs';

// The SDK's once-per-process note that its 2027 releases need Node 22 is not the bench's output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/**
 * Starts dynalite, creates the runner's fresh table (BENCH_TABLE, partition key `id` of type N)
 * and resolves to a client with POOL_SIZE sockets, the table and a close that ends both.
 */
export async function openDynamo() {
  const table = process.env.BENCH_TABLE;
  if (table === undefined || !/^bench_plants_\w+$/.test(table)) {
    throw new TypeError('BENCH_TABLE must name a fresh table bench_plants_…');
  }
  const child = fork(fileURLToPath(new URL('dynalite-child.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`dynalite exited with ${code}`)));
  });
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: { httpAgent: { keepAlive: true, maxSockets: POOL_SIZE } },
  });
  await client.send(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'N' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  return {
    client,
    table,
    close() {
      client.destroy();
      child.kill();
    },
  };
}
