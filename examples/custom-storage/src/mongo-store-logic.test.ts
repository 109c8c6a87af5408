import { describeStoreConformance } from '@plantstore/core/testing';
import { MongoServerError, type Collection } from 'mongodb';
import { describe, it } from 'vitest';
import { mongoStore, type PlantDocument } from './mongo-store';

// No MongoDB server runs here: this runs the conformance suite on a stand-in for the two calls the
// store makes, which refuses a second `_id` with the driver's own duplicate key error (11000), so
// that the store's logic (insert, read back, exact ids and strings) is checked. What a real server
// does besides is not: ./mongo-store.test.ts runs the suite on one when MONGODB_URL is set.
function standIn(): Collection<PlantDocument> {
  const documents = new Map<string, PlantDocument>();
  const insertOne = async (document: PlantDocument) => {
    await Promise.resolve(); // answered later, as a server would, so that inserts interleave
    if (documents.has(document._id)) {
      throw new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 });
    }
    documents.set(document._id, structuredClone(document));
    return { acknowledged: true, insertedId: document._id };
  };
  const findOne = async ({ _id }: { _id: string }) => {
    await Promise.resolve();
    return documents.get(_id) ?? null;
  };
  return { insertOne, findOne } as unknown as Collection<PlantDocument>;
}

describeStoreConformance({ describe, it }, 'mongoStore on a stand-in collection', {
  create: () => mongoStore(standIn()),
});
