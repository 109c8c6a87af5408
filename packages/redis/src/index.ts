export type {
  IoRedisLike,
  NodeRedisClientLike,
  NodeRedisClusterLike,
  RedisClient,
} from './clients';
export { redisStore } from './redis-store';
export { redisReplayStore } from './replay-store';
export type { RedisStore, RedisStoreOptions } from './redis-store';
export type { RedisReplayStore, RedisReplayStoreOptions } from './replay-store';
