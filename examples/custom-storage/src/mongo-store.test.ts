import { randomUUID } from 'node:crypto';
import { describeStoreConformance } from '@plantstore/core/testing';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { mongoStore, type PlantDocument } from './mongo-store';

const client = new MongoClient(process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017');
// This run's collections all start with `run`; each test gets one of its own.
const run = `plantstore_test_${randomUUID().replaceAll('-', '')}_`;
let tests = 0;

beforeAll(async () => {
  await client.connect();
});

afterAll(async () => {
  const db = client.db();
  for (const { name } of await db.listCollections({ name: { $regex: `^${run}` } }).toArray()) {
    await db.dropCollection(name);
  }
  await client.close();
});

describeStoreConformance({ describe, it }, 'mongoStore', {
  create: () => mongoStore(client.db().collection<PlantDocument>(`${run}${(tests += 1)}`)),
});
