import { randomBytes } from 'node:crypto';
import { paginateScan, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  concurrentCreates,
  inFlight,
  keepAliveClient,
  startServerProcess,
  stopServerProcess,
  type KeepAliveClient,
  type ServerProcess,
} from '@plantstore/http-suite/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoDbStore } from '../src/index';
import { lowLevelClient, uniqueTable } from './services';

/** The 1,000 plants: both int64 ends, ids past 2^53 either side, some tags "" and some absent. */
const plants = Array.from({ length: 1_000 }, (_, index) => ({
  id:
    index === 0
      ? -(2n ** 63n)
      : index === 1
        ? 2n ** 63n - 1n
        : (index % 2 === 0 ? -1n : 1n) * (2n ** 53n + BigInt(index) * 7_919n),
  name: `plant ${index} 🌵`,
  tag: index % 4 === 0 ? undefined : index % 4 === 1 ? '' : `tag ${index % 3}`,
}));

/** Every item of `table`, by id, read with a strongly consistent scan. */
async function storedItems(client: DynamoDBClient, table: string) {
  const items = new Map<bigint, { name?: string | undefined; tag?: string | undefined }>();
  const pages = paginateScan({ client }, { TableName: table, ConsistentRead: true });
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const id = BigInt(item['id']?.N ?? 'NaN');
      expect(items.has(id), `two items for id ${id}`).toBe(false);
      items.set(id, { name: item['name']?.S, tag: item['tag']?.S });
    }
  }
  return items;
}

describe('two server processes on one DynamoDB table (dynalite)', () => {
  const table = uniqueTable('two-processes');
  const token = randomBytes(24).toString('base64url');
  let dynamo: ServerProcess;
  let client: DynamoDBClient;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    const start = (fixture: string, env: Record<string, string>) =>
      startServerProcess(
        new URL(`fixtures/${fixture}`, import.meta.url),
        new URL('../tsconfig.json', import.meta.url),
        env,
      );
    // dynalite in a third process: three processes, not one, share the machine's cores.
    dynamo = await start('dynalite-process.ts', {});
    const endpoint = `http://127.0.0.1:${dynamo.port}`;
    client = lowLevelClient(endpoint);
    await dynamoDbStore({ client, table }).ensureTable();
    const env = { DYNAMODB_ENDPOINT: endpoint, PLANT_TABLE: table, PLANT_TOKEN: token };
    servers = await Promise.all([
      start('plant-server.ts', { ...env, PLANT_CLIENT: 'low-level' }),
      start('plant-server.ts', { ...env, PLANT_CLIENT: 'document' }),
    ]);
  }, 60_000);

  afterAll(async () => {
    for (const { child } of servers) if (child.exitCode === null) child.kill();
    client.destroy();
    await stopServerProcess(dynamo);
  });

  it('creates each of 1,000 ids exactly once under 10,000 concurrent creates, answering 200 or 409 as the content says', async () => {
    const attempts = concurrentCreates(plants, 20_261_127);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const clients = servers.map(({ port }) => keepAliveClient(`http://127.0.0.1:${port}`, 100));
    const started = Date.now();
    const outcomes = await inFlight(attempts, 200, async (attempt, index) => {
      const http = clients[index % 2] as KeepAliveClient;
      const reply = await http.send({ body: attempt.body, headers });
      return { plant: attempt.plant, status: reply.status, text: reply.text };
    });
    const elapsed = Date.now() - started;
    for (const http of clients) http.close();

    const stored = await storedItems(client, table);
    expect(stored.size).toBe(plants.length);
    const statuses: Record<number, number> = {};
    for (const { plant, status, text } of outcomes) {
      statuses[status] = (statuses[status] ?? 0) + 1;
      const item = stored.get(plant.id);
      expect(item, `no item for id ${plant.id}`).toBeDefined();
      const same = item?.name === plant.name && item.tag === plant.tag;
      expect(status, `id ${plant.id}: ${text}`).toBe(same ? 200 : 409);
      if (same) {
        const body =
          item?.tag === undefined ? { name: item?.name } : { name: item.name, tag: item.tag };
        expect(JSON.parse(text)).toMatchObject(body);
      }
    }
    const created = await Promise.all(servers.map(stopServerProcess));
    expect(created.reduce((sum, count) => sum + count, 0)).toBe(plants.length);
    console.info(
      `[dynamodb two processes] ${outcomes.length} creates in ${elapsed} ms, statuses ` +
        `${JSON.stringify(statuses)}, created ${created.join(' + ')}`,
    );
  }, 300_000);
});
