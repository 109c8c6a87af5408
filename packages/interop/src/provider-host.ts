import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { providerConfiguration, signingKeys, type SigningKeys } from './provider-config';

/** oidc-provider running in this process on 127.0.0.1, at an issuer that survives its restarts. */
export interface ProviderHost {
  /** `http://127.0.0.1:{port}`, the same through every restart. */
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

/**
 * Starts oidc-provider (a Koa application) on a free port of 127.0.0.1. The port is chosen once, so
 * the issuer and the JWKS address stay the same when the provider is stopped and started again, as a
 * real provider's do across an outage or a restart.
 *
 * @returns the running provider
 */
export async function startProvider(): Promise<ProviderHost> {
  let handler: Handler | undefined;
  const server = createServer((req, res) => {
    // No keep-alive: a client's pooled connection to a provider that was just stopped would fail the
    // next request that reuses it before the close is read, and the tests would measure that race.
    res.setHeader('connection', 'close');
    handler?.(req, res);
  });
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
  const issuer = `http://127.0.0.1:${port}`;
  let keys = signingKeys(1);
  // A new Provider is a restarted process: it keeps nothing in memory but its configuration.
  const boot = () => {
    const callback = new Provider(issuer, providerConfiguration(keys)).callback();
    handler = (req, res) => void callback(req, res);
  };
  boot();

  const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
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
