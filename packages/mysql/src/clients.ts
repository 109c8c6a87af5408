import { describeValue, optionError } from '@plantstore/core/adapter';
// The shapes of the mysql2 objects the stores accept, written out so that the package's types do not
// depend on mysql2's: a Pool, PoolConnection or Connection of `mysql2` or `mysql2/promise` fits
// them as it is. The stores talk to the callback object underneath (a promise wrapper holds it as
// `pool` or `connection`), so that a statement can outlive the request that started it and still
// be cleaned up after.

/** The per-statement options the stores pass, whatever the client was created with. */
export interface QueryOptions {
  readonly sql: string;
  readonly rowsAsArray: boolean;
  readonly nestTables: boolean;
  readonly typeCast: (field: unknown, next: () => unknown) => unknown;
}

/** What a statement answers: rows for a SELECT, a result header (affected rows, info) otherwise. */
export type QueryCallback = (error: Error | null, result?: unknown) => void;

/** A connection of mysql2's callback API, as `createConnection()` returns it or a pool lends it. */
export interface MysqlConnectionLike {
  /** The server's id of the connection, which `KILL QUERY` names. */
  readonly threadId: number | null;
  /** The connection's settings, reused to open the connection that sends `KILL QUERY`. */
  readonly config: object;
  query(options: QueryOptions, callback: QueryCallback): unknown;
}

/** A connection lent by a callback Pool. */
export interface MysqlPoolConnectionLike extends MysqlConnectionLike {
  release(): void;
  destroy(): void;
}

/** A Pool of mysql2's callback API (`mysql.createPool(…)`). */
export interface MysqlPoolLike {
  getConnection(callback: (error: Error | null, connection: MysqlPoolConnectionLike) => void): void;
}

/** A Pool of `mysql2/promise`, which holds its callback Pool as `pool`. */
export interface MysqlPromisePoolLike {
  readonly pool: MysqlPoolLike;
}

/**
 * A Connection or PoolConnection of `mysql2/promise`. At run time it holds its callback connection as
 * `connection`, which the stores use; mysql2's types do not declare that, so the shape here is the
 * part its types do declare.
 */
export interface MysqlPromiseConnectionLike {
  readonly threadId: number | null;
  query(sql: string): Promise<unknown>;
}

/**
 * A client the MySQL stores accept: a Pool (the choice for servers), a connection lent by a Pool, or
 * a connected Connection, of `mysql2` or of `mysql2/promise`.
 */
export type MysqlClient =
  MysqlPoolLike | MysqlPromisePoolLike | MysqlConnectionLike | MysqlPromiseConnectionLike;

/** Which factory checks an option: error messages start with its name. */
export type Factory = 'mysqlStore' | 'mysqlReplayStore';

/** The callback object under what the caller passed, and whether it is a pool. */
export type ClientKind =
  | { readonly kind: 'pool'; readonly pool: MysqlPoolLike }
  | { readonly kind: 'connection'; readonly connection: MysqlConnectionLike };

/**
 * Tells a pool from a single connection, unwrapping a `mysql2/promise` object to the callback object
 * it holds: a pool has `getConnection`, a connection has `threadId`.
 *
 * @param client - what the caller passed as `client`
 * @param factory - who is checking, for the message
 * @returns the callback object with its kind
 * @throws TypeError when `client` is neither
 */
export function classifyClient(client: unknown, factory: Factory): ClientKind {
  const inner = unwrap(client);
  if (hasFunction(inner, 'getConnection')) return { kind: 'pool', pool: inner as MysqlPoolLike };
  if (hasFunction(inner, 'query') && 'threadId' in inner && 'config' in inner) {
    return { kind: 'connection', connection: inner as MysqlConnectionLike };
  }
  return optionError(
    factory,
    'client',
    'must be a mysql2 Pool, PoolConnection or Connection (callback or promise API)',
    describeValue(client),
  );
}

function unwrap(client: unknown): object {
  if (typeof client !== 'object' || client === null) return {};
  const { pool, connection } = client as { pool?: unknown; connection?: unknown };
  if (typeof pool === 'object' && pool !== null && hasFunction(pool, 'getConnection')) return pool;
  if (typeof connection === 'object' && connection !== null && hasFunction(connection, 'query')) {
    return connection;
  }
  return client;
}

function hasFunction(value: object, name: string): boolean {
  return typeof (value as Record<string, unknown>)[name] === 'function';
}
