// The app author's names: the two factories, their options and stores, and the clients they take.
export { redisStore, type RedisStore, type RedisStoreOptions } from './redis-store';
export { redisReplayStore } from './replay-store';
export type { RedisReplayStore, RedisReplayStoreOptions } from './replay-store';
export type { IoRedisLike, NodeRedisClientLike, NodeRedisClusterLike } from './clients';
export type { RedisClient } from './clients';
export { redisStreamSink } from './events/stream-sink';
export type { RedisStreamSink, RedisStreamSinkOptions } from './events/stream-sink';
