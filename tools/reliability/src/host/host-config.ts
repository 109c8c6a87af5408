import type { Adapter } from './adapters';

/** The `pg.Pool` settings of a host process; see docs/stores/choosing-a-store.md for what each one bounds. */
export interface HostPoolConfig {
  readonly max?: number;
  readonly connectionTimeoutMillis?: number;
  /** Server-side backstop, in milliseconds. */
  readonly statementTimeout?: number;
  /** Names the host's backends in `pg_stat_activity`, so a scenario can kill exactly those. */
  readonly applicationName?: string;
  /**
   * Give every new connection an `error` listener of the host's own (`pool.on('connect')`). The
   * scenarios leave it off: the store's listener, attached as the connection is handed out, must be
   * enough (see docs/reference/reliability.md, "Found and fixed"), and a crash fails the scenario.
   */
  readonly guardConnections?: boolean;
}

/** The `jwtBearer` settings of a host process: the token issuer's JWKS and its key-set tuning. */
export interface HostAuthConfig {
  readonly jwksUri: string;
  readonly issuer: string;
  readonly audience: string;
  readonly jwks?: {
    readonly timeoutMs?: number;
    readonly cooldownMs?: number;
    readonly maxAgeMs?: number;
    readonly staleMs?: number;
    readonly retryAfter?: number;
  };
  /**
   * Skip `service.ready()` at start, to start with no key cached: the host then connects the pool
   * and runs `service.warmUp()` alone, so its route is compiled before it listens all the same.
   */
  readonly skipReady?: boolean;
}

/** The `node:http` server settings of a host process (Node's defaults when absent). */
export interface HostServerConfig {
  readonly headersTimeout?: number;
  readonly requestTimeout?: number;
  readonly keepAliveTimeout?: number;
  readonly connectionsCheckingInterval?: number;
}

/** Everything a host process needs, passed to it as JSON in `PLANT_HOST_CONFIG`. */
export interface HostConfig {
  readonly adapter: Adapter;
  readonly databaseUrl: string;
  /** The table, created by the parent beforehand. */
  readonly table: string;
  readonly pool?: HostPoolConfig;
  readonly auth: HostAuthConfig;
  readonly service?: {
    readonly storeTimeout?: number;
    readonly bodyTimeout?: number;
    readonly bodyLimit?: number;
    readonly retryAfter?: number;
  };
  readonly server?: HostServerConfig;
}

/** One call of the `onError` hook, as the host process recorded it. */
export interface RecordedError {
  readonly code: string;
  readonly status: number;
  /** The `jti` claim of the request's token, when it had one: tells requests apart. */
  readonly jti: string | undefined;
  /** The underlying failure's message (never sent to clients; checked not to leak). */
  readonly cause: string;
}

/** What a host process reports about itself. */
export interface HostStats {
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
  /** Open sockets of the HTTP server. */
  readonly connections: number;
  /** Bytes read by every socket the server accepted, open or closed. */
  readonly bytesRead: number;
  /** Plants created (the `onCreated` hook). */
  readonly created: number;
  /** Calls of `onError`. */
  readonly errors: number;
  /** Calls of `onRejected` by reason code. */
  readonly rejected: Readonly<Record<string, number>>;
  /** Errors the host framework itself saw (Express error middleware, Koa `app.on('error')`). */
  readonly hostErrors: number;
  /** The first few of those errors, as `name code: message`. */
  readonly hostErrorSamples: readonly string[];
  /** Errors the host framework reported for clients that went away (Koa does, for a socket reset). */
  readonly clientGone: number;
  /** `error` events of idle pooled connections. */
  readonly poolErrors: number;
  readonly poolTotal: number;
  readonly poolIdle: number;
  readonly poolWaiting: number;
}

/** Messages the parent sends to a host process. */
export type HostCommand =
  | { readonly id: number; readonly command: 'stats' }
  | { readonly id: number; readonly command: 'gc' }
  | { readonly id: number; readonly command: 'errors' }
  | { readonly id: number; readonly command: 'close' };

/** Messages a host process sends to its parent. */
export type HostMessage =
  | { readonly type: 'listening'; readonly port: number }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'reply'; readonly id: number; readonly value: unknown };
