export { postgresStore } from './postgres-store';
export type { PostgresStore, PostgresStoreOptions } from './postgres-store';
export { schemaSql } from './schema';
export { postgresReplayStore } from './replay-store';
export type { PostgresReplayStore, PostgresReplayStoreOptions } from './replay-store';
export { replaySchemaSql } from './replay-schema';
export type {
  PGliteLike,
  PGliteQueryOptions,
  PgBackendLike,
  PgClientLike,
  PgPoolClientLike,
  PgPoolLike,
  PostgresClient,
  PostgresJsConnectionLike,
  PostgresJsPendingLike,
  PostgresJsQueryLike,
  PostgresJsReservedLike,
  PostgresJsSqlLike,
  SqlResult,
} from './clients';
