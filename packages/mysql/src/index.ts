export type {
  MysqlClient,
  MysqlConnectionLike,
  MysqlPoolConnectionLike,
  MysqlPoolLike,
  MysqlPromiseConnectionLike,
  MysqlPromisePoolLike,
  QueryCallback,
  QueryOptions,
} from './clients';
export { mysqlStore } from './mysql-store';
export { mysqlReplayStore } from './replay-store';
export { schemaSql } from './schema';
export { replaySchemaSql } from './replay-schema';
export type { MysqlStore, MysqlStoreOptions } from './mysql-store';
export type { MysqlReplayStore, MysqlReplayStoreOptions } from './replay-store';
export type { MysqlStoreBase } from './store-base';
