import { KeyObject, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWK } from 'jose';
import type { DpopClient } from './dpop-client';
import { certificateThumbprint } from '../auth/mtls/certificate-thumbprint';

/** Key types a {@link TokenIssuer} can sign with. */
export type TokenIssuerAlgorithm = 'RS256' | 'ES256' | 'EdDSA';

/** Options of {@link createTokenIssuer}. */
export interface TokenIssuerOptions {
  /** Signing algorithm, and so the key type. Default `RS256`. */
  readonly algorithm?: TokenIssuerAlgorithm;
  /** The `iss` of minted tokens. Default the server's origin, `http://127.0.0.1:<port>`. */
  readonly issuer?: string;
  /** The `aud` of minted tokens. Default `plantstore`. */
  readonly audience?: string;
  /** Port on 127.0.0.1. Default 0: a free port. */
  readonly port?: number;
}

/** Options of {@link TokenIssuer.sign}. Numbers are seconds relative to now (negative: in the past). */
export interface SignOptions {
  /** `exp`: seconds from now, or a jose duration (`'2h'`, `'-5 min'`). Default 3600. */
  readonly expiresIn?: number | string;
  /** `nbf`: seconds from now, or a jose duration. Default none. */
  readonly notBefore?: number | string;
  /** `iat`: seconds from now, or a jose duration. Default now. */
  readonly issuedAt?: number | string;
  /** Extra protected header fields; may replace `kid` and `typ`, never `alg`. */
  readonly header?: Readonly<Record<string, unknown>>;
  /** Which key signs: the published `current` or `previous` one, or one never published. Default `current`. */
  readonly key?: 'current' | 'previous' | 'unpublished';
  /** The `alg` to sign with; it must suit the key type (RS256 keys also sign RS384…PS512). */
  readonly algorithm?: string;
  /** Bind the token to a DPoP client's key: `cnf: { jkt }` (RFC 9449 §6.1). */
  readonly boundTo?: DpopClient;
  /**
   * Bind the token to a client certificate, its DER bytes or PEM: `cnf: { 'x5t#S256' }` (RFC 8705
   * §3.1), beside `jkt` when `boundTo` is set too.
   */
  readonly certificate?: Uint8Array | string;
}

function confirmation(options: SignOptions): Record<string, string> | undefined {
  const { boundTo, certificate } = options;
  if (boundTo === undefined && certificate === undefined) return undefined;
  return {
    ...(boundTo === undefined ? {} : { jkt: boundTo.jkt }),
    ...(certificate === undefined ? {} : { 'x5t#S256': certificateThumbprint(certificate) }),
  };
}

/** How the JWKS endpoint misbehaves: `down` answers 503, `slow` answers late, `garbage` answers 200 with non-JSON. */
export type OutageMode = 'down' | 'slow' | 'garbage' | 'none';

/** A local identity provider for tests: a JWKS on 127.0.0.1 and the tokens it can verify. */
export interface TokenIssuer {
  /** `http://127.0.0.1:<port>/.well-known/jwks.json`. */
  readonly jwksUri: string;
  /** The `iss` of minted tokens. */
  readonly issuer: string;
  /** The `aud` of minted tokens. */
  readonly audience: string;
  /** `jwksUri`, `issuer` and `audience`: what `jwtBearer` needs to accept its tokens. */
  readonly jwtBearerOptions: {
    readonly jwksUri: string;
    readonly issuer: string;
    readonly audience: string;
  };
  /** How many JWKS requests the server has received, outages included. */
  readonly requests: number;
  /**
   * Mints a signed RFC 9068 access token (`typ: at+jwt`) with `iss`, `aud`, `sub` (`test-user`),
   * `client_id` (`test-client`), a fresh `jti`, `iat` and `exp`; `claims` override them (`undefined`
   * removes one), `options.header` may replace `typ`.
   */
  sign(claims?: Readonly<Record<string, unknown>>, options?: SignOptions): Promise<string>;
  /** Makes a new current key; the old one stays published as `previous` until the next rotation. */
  rotate(): Promise<void>;
  /** Simulates an outage of the JWKS endpoint until `outage('none')`. `slow` waits `delayMs` (default 10 s). */
  outage(mode: OutageMode, options?: { readonly delayMs?: number }): void;
  /** Stops the server and destroys open connections, also those of a `slow` outage. */
  close(): Promise<void>;
}

interface IssuerKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicJwk: JWK;
}

async function newKey(algorithm: TokenIssuerAlgorithm): Promise<IssuerKey> {
  // Extractable so the private key can become a KeyObject, which signs with any alg of its type.
  const pair = await generateKeyPair(algorithm, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, use: 'sig' };
  return { kid, privateKey: KeyObject.from(pair.privateKey), publicJwk };
}

/**
 * Starts a local token issuer: a real HTTP server on 127.0.0.1 that serves a JWKS at
 * `/.well-known/jwks.json`, mints tokens with chosen claims, rotates keys and simulates outages.
 * Point `jwtBearer({ jwksUri })` at it and test the mounted route end to end.
 *
 * @param options - algorithm, issuer, audience and port, see {@link TokenIssuerOptions}
 * @returns the running issuer; `close()` it after the tests
 * @throws when the port cannot be bound
 * @example
 * ```ts
 * const issuer = await createTokenIssuer();
 * const auth = jwtBearer({ jwksUri: issuer.jwksUri, issuer: issuer.issuer, audience: issuer.audience });
 * const token = await issuer.sign({ scope: 'plants:write' });
 * afterAll(() => issuer.close());
 * ```
 */
export async function createTokenIssuer(options: TokenIssuerOptions = {}): Promise<TokenIssuer> {
  const algorithm = options.algorithm ?? 'RS256';
  const audience = options.audience ?? 'plantstore';
  let current = await newKey(algorithm);
  let previous: IssuerKey | undefined;
  const unpublished = await newKey(algorithm);
  let mode: OutageMode = 'none';
  let delayMs = 10_000;
  let requests = 0;
  const timers = new Set<NodeJS.Timeout>();

  const answer = (response: ServerResponse): void => {
    if (response.destroyed) return;
    if (mode === 'down') {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
    } else if (mode === 'garbage') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops</html>');
    } else {
      const keys = previous === undefined ? [current] : [current, previous];
      const body = JSON.stringify({ keys: keys.map((key) => key.publicJwk) });
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/.well-known/jwks.json' || request.method !== 'GET') {
      response.writeHead(404).end();
      return;
    }
    requests += 1;
    if (mode !== 'slow') {
      answer(response);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer(response);
    }, delayMs);
    // A test that forgets close() should not hang on a pending slow answer.
    timer.unref();
    timers.add(timer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = options.issuer ?? origin;

  const relative = (value: number | string, nowSeconds: number): number | string =>
    typeof value === 'number' ? nowSeconds + value : value;

  const jwksUri = `${origin}/.well-known/jwks.json`;
  return {
    jwksUri,
    issuer,
    audience,
    jwtBearerOptions: { jwksUri, issuer, audience },
    get requests() {
      return requests;
    },
    async sign(claims = {}, signOptions = {}) {
      const choice = signOptions.key ?? 'current';
      const key = choice === 'current' ? current : choice === 'previous' ? previous : unpublished;
      if (key === undefined) throw new Error('There is no previous key: call rotate() first.');
      const nowSeconds = Math.floor(Date.now() / 1000);
      const cnf = confirmation(signOptions);
      const has = (claim: string): boolean => Object.hasOwn(claims, claim);
      // RFC 9068's claims and type, so a route with `profile: 'rfc9068'` accepts these tokens as they are.
      const jwt = new SignJWT({
        iss: issuer,
        aud: audience,
        sub: 'test-user',
        client_id: 'test-client',
        jti: randomUUID(),
        ...(cnf === undefined ? {} : { cnf }),
        ...claims,
      });
      if (!has('iat')) jwt.setIssuedAt(relative(signOptions.issuedAt ?? 0, nowSeconds));
      if (!has('exp')) jwt.setExpirationTime(relative(signOptions.expiresIn ?? 3600, nowSeconds));
      if (!has('nbf') && signOptions.notBefore !== undefined) {
        jwt.setNotBefore(relative(signOptions.notBefore, nowSeconds));
      }
      const alg = signOptions.algorithm ?? algorithm;
      jwt.setProtectedHeader({ typ: 'at+jwt', kid: key.kid, ...signOptions.header, alg });
      return jwt.sign(key.privateKey);
    },
    async rotate() {
      const next = await newKey(algorithm);
      previous = current;
      current = next;
    },
    outage(next, outageOptions = {}) {
      mode = next;
      delayMs = outageOptions.delayMs ?? 10_000;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve) => {
        // Resolves also when already closed: close() is safe to call twice.
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
