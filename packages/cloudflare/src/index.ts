// The package's public entry: the D1 store, the Durable Object replay store and its class, and the
// structural types of the bindings they take.
export { schemaSql } from './d1-schema';
export { d1Store } from './d1-store';
export { durableObjectReplayStore } from './durable-object-replay-store';
export { ReplayDurableObject } from './replay-durable-object';

export type { D1Store, D1StoreOptions } from './d1-store';
export type { DurableObjectReplayStoreOptions } from './durable-object-replay-store';
export type { D1DatabaseLike, D1ResultLike, D1StatementLike } from './d1-types';
export type {
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
  DurableObjectStubLike,
} from './durable-object-types';
