import { createServer, type Server } from 'node:https';
import type { RequestListener } from 'node:http';
import type { ContractTls } from '../contract-setup';
import { testCertificates } from './test-certificates';

/**
 * An HTTPS server that asks every client for a certificate and lets one without reach the route:
 * the route, not the handshake, decides what a request without a certificate gets (RFC 8705).
 *
 * @param listener - the request listener (an Express app, Koa's callback, Fastify's handler)
 * @param tls - the server's key and certificate, and the CA its clients' certificates come from
 * @returns the server, not listening yet
 * @example
 * const server = tlsServer(app, await contractTls());
 */
export function tlsServer(listener: RequestListener, tls: ContractTls): Server {
  return createServer(tlsServerOptions(tls), listener);
}

/**
 * The `node:https` options of {@link tlsServer}, for a host that makes its server itself (NestJS's
 * `httpsOptions`): ask for a client certificate, and let a request without one (or with one the CA
 * did not sign) through to the route.
 *
 * @param tls - the server's key and certificate, and the CA of its clients
 * @returns the options
 */
export function tlsServerOptions(tls: ContractTls): TlsServerOptions {
  return { key: tls.key, cert: tls.cert, ca: tls.ca, requestCert: true, rejectUnauthorized: false };
}

/**
 * The TLS settings of the contract's HTTPS hosts, from {@link testCertificates}: the server
 * certificate for 127.0.0.1 and the CA of the `client` and `other` certificates.
 *
 * @returns the settings, for `ContractSetup.tls`
 */
export async function contractTls(): Promise<ContractTls> {
  const { ca, server } = await testCertificates();
  return { key: server.keyPem, cert: server.certPem, ca: ca.certPem };
}

/** What {@link tlsServerOptions} sets: assignable to `node:https`'s options and to Nest's `httpsOptions`. */
export interface TlsServerOptions {
  readonly key: string;
  readonly cert: string;
  readonly ca: string;
  readonly requestCert: true;
  readonly rejectUnauthorized: false;
}
