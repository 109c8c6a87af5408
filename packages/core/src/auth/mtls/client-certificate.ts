import { base64Bytes } from '../../common/base64';
import { nodeBuiltin } from '../../common/node-builtin';
import { certificateThumbprint, pemCertificateDer } from './certificate-thumbprint';

/** The TLS client certificate a request came with (RFC 8705). */
export interface ClientCertificate {
  /** Its DER encoding, as sent. Shared by every request of the connection: do not modify it. */
  readonly der: Uint8Array;
  /** Its SHA-256 thumbprint, as in `cnf["x5t#S256"]`: see `certificateThumbprint`. */
  readonly thumbprint: string;
}

// Once per TLS connection: `getPeerCertificate` builds a new object on every call, and a
// connection's client certificate is fixed by its handshake. TLS 1.3 and HTTP/2 have no
// renegotiation; over TLS 1.2 Node servers accept a client's (up to tls.CLIENT_RENEG_LIMIT), so the
// first read turns it off for that connection: a certificate cached here can never be replaced
// under it. `null` remembers a connection without one.
const bySocket = new WeakMap<object, ClientCertificate | null>();

interface PeerSocket {
  readonly encrypted?: unknown;
  readonly _handle?: unknown;
  getPeerCertificate?(detailed?: boolean): { readonly raw?: unknown } | null;
  disableRenegotiation?(): void;
}

function certificateOf(der: Uint8Array): ClientCertificate {
  return Object.freeze({ der, thumbprint: certificateThumbprint(der) });
}

function readPeer(socket: PeerSocket): ClientCertificate | null {
  // Not a TLSSocket (plain HTTP, a test double): no certificate. An empty object or no `raw` is a
  // client that sent none.
  if (socket.encrypted !== true || typeof socket.getPeerCertificate !== 'function') return null;
  // Before reading: a renegotiation after it would fail the connection ('error'), never go unseen.
  // The HTTP/2 compat socket (a proxy) has no such method; HTTP/2 forbids renegotiation anyway.
  if (typeof socket.disableRenegotiation === 'function') socket.disableRenegotiation();
  const raw = socket.getPeerCertificate(false)?.raw;
  return raw instanceof Uint8Array && raw.length > 0 ? certificateOf(raw) : null;
}

/**
 * The client certificate of a TLS connection, read and hashed once per connection.
 *
 * @param socket - the connection (Node's `req.socket`), or anything else
 * @returns the certificate, or `undefined` for a connection that is not TLS or has none
 * @example
 * ```ts
 * peerCertificate(req.socket)?.thumbprint;
 * ```
 */
export function peerCertificate(socket: unknown): ClientCertificate | undefined {
  if (typeof socket !== 'object' || socket === null) return undefined;
  const peer = socket as PeerSocket;
  // Keyed by the connection's native handle when there is one: the http2 compat `req.socket` is a
  // new proxy per stream, each reaching the one TLSSocket and its one handle.
  const key = typeof peer._handle === 'object' && peer._handle !== null ? peer._handle : socket;
  let certificate = bySocket.get(key);
  if (certificate === undefined) {
    certificate = readPeer(peer);
    bySocket.set(key, certificate);
  }
  return certificate ?? undefined;
}

// Proxies resend the same few certificates: a small cache spares the parse and the hash. Bounded,
// and emptied when full, so a stream of distinct headers costs memory of at most this many.
const MAX_CACHED = 64;
const byHeader = new Map<string, ClientCertificate | null>();

// RFC 9440 §2.1: a structured-field byte sequence, the DER in base64 between colons.
const BYTE_SEQUENCE = /^:([A-Za-z0-9+/]+={0,2}):$/u;
// nginx's `$ssl_client_escaped_cert`: the PEM, URL-encoded. Exactly one certificate: a second one
// (two header fields joined by `Headers` with a comma) makes the value no certificate at all.
const ESCAPED_PEM =
  /^-----BEGIN%20CERTIFICATE-----[A-Za-z0-9%+/=]+-----END%20CERTIFICATE-----(%0A)?$/u;

function derOfHeader(value: string): Uint8Array | undefined {
  const bytes = BYTE_SEQUENCE.exec(value)?.[1];
  if (bytes !== undefined) return base64Bytes(bytes);
  if (!ESCAPED_PEM.test(value)) return undefined;
  try {
    return pemCertificateDer(decodeURIComponent(value));
  } catch {
    return undefined;
  }
}

function parseHeader(value: string): ClientCertificate | null {
  const der = derOfHeader(value.trim());
  // The service refuses a `clientCertificateHeader` at start-up on a runtime without node:crypto.
  const X509Certificate = nodeBuiltin('node:crypto')?.X509Certificate;
  if (der === undefined || X509Certificate === undefined) return null;
  try {
    // Garbage that decodes to bytes is not a certificate: it must parse as one.
    new X509Certificate(der);
  } catch {
    return null;
  }
  return certificateOf(der);
}

/**
 * The client certificate a trusted TLS-terminating proxy put in a header: RFC 9440's `Client-Cert`
 * (`:base64-of-DER:`) or nginx's `$ssl_client_escaped_cert` (URL-encoded PEM). Any other form
 * (Envoy's `X-Forwarded-Client-Cert`), or the header sent more than once, is no certificate.
 *
 * @param values - every value of the header, as a `HeaderReader` gives them
 * @returns the certificate, or `undefined`
 * @example
 * ```ts
 * headerCertificate(headers('client-cert'))?.thumbprint;
 * ```
 */
export function headerCertificate(
  values: readonly string[] | undefined,
): ClientCertificate | undefined {
  if (values === undefined || values.length !== 1) return undefined;
  const value = values[0] as string;
  let certificate = byHeader.get(value);
  if (certificate === undefined) {
    certificate = parseHeader(value);
    if (byHeader.size >= MAX_CACHED) byHeader.clear();
    byHeader.set(value, certificate);
  }
  return certificate ?? undefined;
}
