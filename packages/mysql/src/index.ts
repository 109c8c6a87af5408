export { mysqlStore } from './mysql-store';
export type { MysqlStore, MysqlStoreOptions } from './mysql-store';
export { mysqlSchemaSql } from './schema';
export { mysqlReplayStore } from './replay-store';
export type { MysqlReplayStore, MysqlReplayStoreOptions } from './replay-store';
export { mysqlReplaySchemaSql } from './replay-schema';
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
