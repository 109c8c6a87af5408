import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tlsServer, type ContractTls } from '@plantstore/http-suite';
import Provider from 'oidc-provider';
import { providerConfiguration, signingKeys, type SigningKeys } from './provider-config';
import { tlsFetch } from './tls-fetch';

/** oidc-provider running in this process on 127.0.0.1, at an issuer that survives its restarts. */
export interface ProviderHost {
  /** `http://127.0.0.1:{port}` (`https:` with TLS), the same through every restart. */
  readonly issuer: string;
  /** Where the provider publishes its public keys (read from its discovery document). */
  readonly jwksUri: string;
  /** The keys the running provider signs with. */
  readonly keys: SigningKeys;
  /** Stops the provider: its port refuses connections until {@link ProviderHost.start}. */
  stop(): Promise<void>;
  /** Starts the provider again on the same port, with new keys if given (a key rotation). */
  start(keys?: SigningKeys): Promise<void>;
  /** Stops it for good. */
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** How the provider is served. */
export interface ProviderHostOptions {
  /**
   * Serve over HTTPS instead of HTTP, asking every client for a certificate (RFC 8705 mutual TLS). A
   * client without one still connects: the provider decides what a certificate is needed for.
   */
  readonly tls?: ContractTls;
}

/**
 * Starts oidc-provider (a Koa application) on a free port of 127.0.0.1. The port is chosen once, so
 * the issuer and the JWKS address stay the same when the provider is stopped and started again, as a
 * real provider's do across an outage or a restart.
 *
 * @param options - `tls` to serve it over HTTPS with client certificates
 * @returns the running provider
 */
export async function startProvider(options: ProviderHostOptions = {}): Promise<ProviderHost> {
  const { tls } = options;
  let handler: Handler | undefined;
  const listener: Handler = (req, res) => {
    // No keep-alive: a client's pooled connection to a provider that was just stopped would fail the
    // next request that reuses it before the close is read, and the tests would measure that race.
    res.setHeader('connection', 'close');
    handler?.(req, res);
  };
  // Over TLS a client without a certificate, or with an untrusted one, still connects; the provider
  // reads the handshake's verdict (`socket.authorized`) where a certificate matters.
  const server = tls === undefined ? createServer(listener) : tlsServer(listener, tls);
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });

  await listen(0);
  const { port } = server.address() as AddressInfo;
  const issuer = `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  let keys = signingKeys(1);
  // A new Provider is a restarted process: it keeps nothing in memory but its configuration.
  const boot = () => {
    const callback = new Provider(issuer, providerConfiguration(keys)).callback();
    handler = (req, res) => void callback(req, res);
  };
  boot();

  const fetchIt = tls === undefined ? fetch : tlsFetch({ ca: tls.ca });
  const discovery = await fetchIt(`${issuer}/.well-known/openid-configuration`);
  const { jwks_uri: jwksUri } = (await discovery.json()) as { jwks_uri: string };

  return {
    issuer,
    jwksUri,
    get keys() {
      return keys;
    },
    stop,
    async start(next?: SigningKeys) {
      await stop();
      if (next !== undefined) keys = next;
      boot();
      await listen(port);
    },
    close: stop,
  };
}
