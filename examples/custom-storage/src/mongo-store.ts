import { ServiceUnavailableError, type PlantStore } from '@plantstore/core';
import { storedPlant, storeGate } from '@plantstore/core/store-kit';
import {
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  type Collection,
} from 'mongodb';

/** A plant as kept: `_id` is `${tenant}:${id}`, the exact decimal id last; then its audit fields. */
export interface PlantDocument {
  _id: string;
  name: string;
  tag?: string;
  tenant: string;
  createdBy?: string;
  clientId?: string;
  createdAt: Date;
  tokenId?: string;
}

const DUPLICATE_KEY = 11000;

/**
 * A {@link PlantStore} on MongoDB, written against the public interface only. `insertOne` on the
 * unique `_id` is the one atomic step: of concurrent inserts of an id, exactly one succeeds, and the
 * others fail with a duplicate key error (11000), after which the stored document is read back.
 *
 * @param plants - a collection of the caller's MongoClient, which the caller connects and closes
 * @returns the store
 * @example
 * const client = await new MongoClient(process.env.MONGODB_URL ?? '').connect();
 * const store = mongoStore(client.db('app').collection<PlantDocument>('plants'));
 */
export function mongoStore(plants: Collection<PlantDocument>): PlantStore {
  // The kit's gate: a bounded ready(), and a close() that waits for the creates under way.
  const gate = storeGate({
    code: 'store_unavailable',
    what: 'The MongoDB store',
    mapError: outage,
  });
  return {
    insert: (plant, context) =>
      gate.call(context, async () => {
        const { id, ...fields } = plant;
        const _id = `${plant.tenant}:${id}`;
        const document = Object.fromEntries(
          Object.entries(fields).filter(([, value]) => value !== undefined),
        ) as Omit<PlantDocument, '_id'>;
        try {
          await plants.insertOne({ _id, ...document });
          return { created: true };
        } catch (error) {
          if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
        }
        // Plants are never deleted, so the document that refused the insert is still there.
        const stored = await plants.findOne({ _id });
        if (stored === null)
          throw new Error(`mongoStore: plant ${_id} vanished after a duplicate key`);
        return { created: false, existing: storedPlant({ ...stored, id }, id, 'mongoStore') };
      }),
    // A lookup on the unique index: cheap, and it needs only the collection.
    ready: () => gate.ready(() => plants.findOne({ _id: '' }, { projection: { _id: 1 } })),
    close: () => gate.close(),
  };
}

/** A failure to reach MongoDB as a 503 the client may retry; anything else (a fault) as it is. */
function outage(error: unknown): unknown {
  const unreachable =
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError;
  if (!unreachable) return error;
  return new ServiceUnavailableError('store_unavailable', 'MongoDB is unavailable.', {
    cause: error,
  });
}
