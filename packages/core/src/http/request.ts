import type { Principal } from '../auth/principal';
import type { PlantLogger } from './plant-logger';

/** A header's value as hosts hand it over: Node's `headersDistinct` gives arrays, `headers` strings. */
export type HeaderValue = string | readonly string[] | undefined;

/**
 * Request headers: a record keyed by lower-case name (Node's `req.headersDistinct` fits as it is and
 * keeps repeated headers apart), a Web `Headers` object, or a reader such as `nodeHeaderReader(req)`.
 */
export type HeaderSource = Readonly<Record<string, HeaderValue>> | Headers | HeaderReader;

/**
 * A request body not yet read: bytes, text, a Web stream, any async iterable such as a Node request,
 * or a Web `Request` itself ({@link WholeBody}).
 */
export type BodySource =
  Uint8Array | string | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string> | WholeBody;

/**
 * A body the runtime can hand over whole, as a Web `Request` does: read with `arrayBuffer()` when
 * its head declares a `Content-Length` within the limit, and through its `body` stream otherwise
 * (chunked, or larger than the limit, which is then refused as the stream passes it).
 */
export interface WholeBody {
  readonly body: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The minimal request the core handles; adapters translate their framework's request into it. */
export interface PlantRequest {
  readonly method: string;
  /** The path relative to where the host mounted the route, without the query string. */
  readonly path: string;
  /**
   * The request target as the client sent it, before a mount point was stripped: Express's
   * `req.originalUrl`, Koa's `ctx.originalUrl`. DPoP proofs are checked against `publicUrl` and its
   * path, and the hooks' `context.path` is its path. Entries that see whole paths (fetch, node) leave
   * it out: `path` is then used.
   */
  readonly originalUrl?: string | undefined;
  readonly headers: HeaderSource;
  /** The raw body, read by the core with its limit and time-out. */
  readonly body?: BodySource | null | undefined;
  /**
   * What a host's body parser left when it read the body first, used only when `body` is absent: text
   * or bytes (`express.text()`, `express.raw()`) are read as the raw body, exactly; a parsed value
   * (`express.json()`, Koa's bodyparser) is validated, and ids beyond 2^53 are then refused because
   * the parser rounded them. An empty body (`Content-Length: 0`) is empty, whatever the parser made.
   */
  readonly parsedBody?: unknown;
  /**
   * The connection the request came over (Node's `req.socket`), read only for a TLS client
   * certificate (RFC 8705), and only when a token is bound to one. Entries without a connection
   * (fetch) leave it out.
   */
  readonly socket?: unknown;
  /** Fires when the client goes away; reading stops. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The host's own router already matched this request to the route (Koa's `router.post('/plants',
   * …)`), so method and path are not checked again.
   */
  readonly matched?: boolean | undefined;
  /**
   * Where what this request causes is logged (a 5xx without `onError`, a set-up warning) in place
   * of the service's `logger`: an adapter's per-request logger, such as Fastify's `request.log`
   * with its `reqId`. Ignored when the service logs nothing (`logger: false`).
   */
  readonly logger?: PlantLogger | undefined;
}

/** The core's answer, ready to write: adapters copy status, headers and body as they are. */
export interface PlantAnswer {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Serialised JSON. */
  readonly body: string;
  /** Who made the request, when the token was verified; adapters expose it to the host. */
  readonly principal?: Principal | undefined;
}

/** Reads every value of one header, whichever form the host handed the headers in. */
export type HeaderReader = (name: string) => readonly string[] | undefined;

/**
 * Turns a {@link HeaderSource} into a {@link HeaderReader}.
 *
 * @param source - the request's headers
 * @returns a reader by lower-case name
 */
export function headerReader(source: HeaderSource): HeaderReader {
  if (typeof source === 'function') return source;
  if (isHeaders(source)) {
    return (name) => {
      const value = source.get(name);
      return value === null ? undefined : [value];
    };
  }
  return (name) => {
    const value = source[name];
    if (value === undefined) return undefined;
    return typeof value === 'string' ? [value] : value;
  };
}

function isHeaders(source: HeaderSource): source is Headers {
  return (
    typeof (source as Headers).get === 'function' && typeof (source as Headers).has === 'function'
  );
}
