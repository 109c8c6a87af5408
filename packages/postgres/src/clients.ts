import { describeValue, optionError } from '@plantstore/core/adapter';
import type { Factory } from './table-name';

// The shapes of the clients the store accepts, written out here so that the package needs neither
// `pg`, PGlite nor `postgres` at run time nor their types at compile time: a `pg` Pool, Client,
// PGlite instance or `postgres` client fits them as it is.

/** What a query answers: the store reads only `rows`. */
export interface SqlResult {
  readonly rows: readonly unknown[];
}

/**
 * What a connected `pg` client knows of its server process, which the store reads to cancel a
 * statement: pg sets all four; pg-native sets no key, and then nothing is cancelled.
 */
export interface PgBackendLike {
  /** The backend's process id, from the connection start-up. */
  readonly processID?: number | null;
  /** The backend's cancel key, from the connection start-up. */
  readonly secretKey?: number | null;
  /** The host (or Unix socket directory) the client connected to. */
  readonly host?: string;
  readonly port?: number;
}

/** The part of a `pg` client checked out of a Pool that the store uses. */
export interface PgPoolClientLike extends PgBackendLike {
  query(text: string, values?: unknown[]): Promise<SqlResult>;
  /** The callback form, which makes no promise of its own. */
  query(
    text: string,
    values: unknown[],
    callback: (error: Error | null | undefined, result: SqlResult | undefined) => void,
  ): void;
  release(error?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a `pg` Pool (`new Pool(…)`) the store uses. */
export interface PgPoolLike {
  /**
   * The callback form: pg-pool calls it in the same turn it hands the connection out, before an
   * error already read from its socket can be emitted with no listener.
   */
  connect(callback: (error: Error | undefined, client: PgPoolClientLike | undefined) => void): void;
  query(text: string, values?: unknown[]): Promise<SqlResult>;
  readonly totalCount: number;
  readonly idleCount: number;
}

/** The part of a connected `pg` Client (`new Client(…)`, after `connect()`) the store uses. */
export interface PgClientLike extends PgBackendLike {
  query(text: string, values?: unknown[]): Promise<SqlResult>;
}

/** The query options of PGlite the store passes. */
export interface PGliteQueryOptions {
  /** Serialisers by parameter type OID, which PGlite calls as it binds the statement's parameters. */
  readonly serializers?: Readonly<Record<number, (value: unknown) => string>>;
}

/** The part of a PGlite instance (`new PGlite(dataDir)`) the store uses. */
export interface PGliteLike {
  query(text: string, params?: unknown[], options?: PGliteQueryOptions): Promise<SqlResult>;
  readonly waitReady: Promise<void>;
}

/**
 * A statement of porsager's `postgres` client after `.raw()`: rows come back as arrays of the
 * column's bytes, past the client's type parsers and value transforms.
 */
export interface PostgresJsPendingLike extends PromiseLike<unknown> {
  /**
   * Stops the statement: one not yet sent is never sent; one running gets a CancelRequest on a
   * socket of its own, the promise settling once the server has closed that socket.
   */
  cancel(): unknown;
}

/** A statement of the `postgres` client, as `sql.unsafe()` returns it. */
export interface PostgresJsQueryLike {
  raw(): PostgresJsPendingLike;
}

/** What runs statements on the `postgres` client: the client, a reserved connection, a transaction. */
export interface PostgresJsConnectionLike {
  unsafe(
    query: string,
    parameters?: unknown[],
    options?: { prepare?: boolean },
  ): PostgresJsQueryLike;
}

/** A connection reserved from a `postgres` client (`await sql.reserve()`): one session. */
export interface PostgresJsReservedLike extends PostgresJsConnectionLike {
  release(): void;
}

/** The part of porsager's `postgres` client (`postgres(url, options)`) the store uses. */
export interface PostgresJsSqlLike extends PostgresJsConnectionLike {
  reserve(): Promise<PostgresJsReservedLike>;
  begin(work: (transaction: PostgresJsConnectionLike) => Promise<unknown>): PromiseLike<unknown>;
}

/**
 * A client {@link postgresStore} accepts: a `pg` Pool, a connected `pg` Client, PGlite, or the
 * `postgres` client (`postgres(url)`, or a connection reserved from it).
 */
export type PostgresClient =
  PgPoolLike | PgClientLike | PGliteLike | PostgresJsSqlLike | PostgresJsReservedLike;

/** Which kind of client was given, told apart by shape. */
export type ClientKind =
  | { readonly kind: 'pglite'; readonly client: PGliteLike }
  | { readonly kind: 'pool'; readonly client: PgPoolLike }
  | { readonly kind: 'client'; readonly client: PgClientLike }
  | { readonly kind: 'postgres'; readonly client: PostgresJsSqlLike }
  | { readonly kind: 'postgres-reserved'; readonly client: PostgresJsReservedLike };

/**
 * Tells the kind of client by its shape: the `postgres` client is a function with `unsafe` (a
 * reserved connection of it also has `release`), PGlite has `waitReady`, a pg Pool has `connect`
 * and `totalCount`, and anything else with `query` is used as a single connected client.
 *
 * @param client - what the caller passed as `client`
 * @param factory - who is checking, for the message
 * @returns the client with its kind
 * @throws TypeError when `client` is none of these
 */
export function classifyClient(client: unknown, factory: Factory = 'postgresStore'): ClientKind {
  if (typeof client === 'function' && hasFunction(client, 'unsafe')) {
    if (hasFunction(client, 'release')) {
      return { kind: 'postgres-reserved', client: client as unknown as PostgresJsReservedLike };
    }
    if (hasFunction(client, 'reserve')) {
      return { kind: 'postgres', client: client as unknown as PostgresJsSqlLike };
    }
  }
  if (typeof client !== 'object' || client === null || !hasFunction(client, 'query')) {
    optionError(
      factory,
      'client',
      'must be a pg Pool, a connected pg Client, a PGlite instance or a postgres client ' +
        '(postgres(url), or await sql.reserve())',
      describeValue(client),
    );
  }
  if ('waitReady' in client) return { kind: 'pglite', client: client as PGliteLike };
  if (hasFunction(client, 'connect') && 'totalCount' in client) {
    return { kind: 'pool', client: client as PgPoolLike };
  }
  return { kind: 'client', client: client as PgClientLike };
}

function hasFunction(value: object, name: string): boolean {
  return typeof (value as Record<string, unknown>)[name] === 'function';
}
