import {
  createHmac,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  randomUUID,
  sign as cryptoSign,
} from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import type { Identity } from './identity';

/** An attacker: its own keys, and a JWKS of them served on 127.0.0.1 that counts every request. */
export interface Attacker {
  /** `http://127.0.0.1:<port>/.well-known/jwks.json`. */
  readonly jwksUri: string;
  /** Another path of the same server, for `x5u`. */
  readonly certUri: string;
  readonly kid: string;
  /** The attacker's RSA public key as a JWK, with its kid. */
  readonly publicJwk: JWK;
  /** Requests the attacker's server received: following any of its URLs would show here. */
  readonly requests: number;
  close(): Promise<void>;
}

/** Who signs a forged token. */
export type Signer =
  | { readonly by: 'attacker'; readonly alg: 'RS256' | 'ES256' | 'EdDSA' }
  | { readonly by: 'trusted' }
  | {
      readonly by: 'hmac';
      readonly alg: 'HS256' | 'HS384' | 'HS512';
      readonly secret: string | Uint8Array;
    }
  | { readonly by: 'nobody'; readonly signature: string };

/** What the token attacks are built from. */
export interface TokenKit {
  readonly identity: Identity;
  /** The services' frozen clock, in seconds. */
  readonly now: number;
  /** A valid token of the issuer. */
  readonly valid: string;
  /** The kid of the issuer's current key. */
  readonly kid: string;
  /** The issuer's current public key as published, as SPKI PEM, and as PKCS#1 PEM. */
  readonly issuerJwk: JWK;
  readonly issuerPem: string;
  readonly issuerPkcs1Pem: string;
  readonly attacker: Attacker;
  /** SPKI PEM of a key pair the test holds, trusted by the `publicKey` host. */
  readonly trustedPem: string;
  /** Valid claims (`iss`, `aud`, `sub`, `scope`, `iat`, `exp`) with `overrides` applied; `undefined` omits one. */
  claims(overrides?: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /**
   * Builds a compact JWS by hand. An object is serialised as JSON; a string is taken as the segment's
   * JSON text; bytes are taken as they are.
   */
  forge(header: unknown, payload: unknown, signer: Signer): string;
  /** The base64url signature of any signing input, such as one with an unencoded payload (RFC 7797). */
  signature(input: string, signer: Signer): string;
  close(): Promise<void>;
}

/** Encodes bytes or text as unpadded base64url. */
export function base64url(input: string | Uint8Array): string {
  return Buffer.from(input).toString('base64url');
}

function segment(part: unknown): string {
  if (part instanceof Uint8Array) return base64url(part);
  return base64url(typeof part === 'string' ? part : JSON.stringify(part));
}

const HASH = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as const;

async function startAttacker(rsa: KeyObject): Promise<Attacker> {
  const kid = `attacker-${randomUUID()}`;
  const publicJwk = {
    ...(createPublicKey(rsa).export({ format: 'jwk' }) as JWK),
    kid,
    use: 'sig',
    alg: 'RS256',
  };
  let requests = 0;
  const server = createServer((_request, response) => {
    requests += 1;
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    jwksUri: `${origin}/.well-known/jwks.json`,
    certUri: `${origin}/cert.pem`,
    kid,
    publicJwk,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Prepares the token attacks: the issuer's published key in every form an attacker could misuse,
 * an attacker with RSA, EC and Ed25519 keys and its own JWKS server, and a key pair for the host
 * configured with `publicKey`.
 *
 * @param identity - the running identity provider
 * @returns the kit; `close()` stops the attacker's server
 */
export async function createTokenKit(identity: Identity): Promise<TokenKit> {
  const published = (await (await fetch(identity.issuer.jwksUri)).json()) as { keys: JWK[] };
  const issuerJwk = published.keys[0] as JWK;
  const issuerKey = createPublicKey({ key: issuerJwk as JsonWebKey, format: 'jwk' });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const ed = generateKeyPairSync('ed25519').privateKey;
  const trusted = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const attacker = await startAttacker(rsa);
  const now = identity.nowSeconds;
  const valid = await identity.sign();

  const claims = (overrides: Readonly<Record<string, unknown>> = {}) => {
    const all: Record<string, unknown> = {
      iss: identity.issuer.issuer,
      aud: identity.issuer.audience,
      sub: 'attacker',
      scope: 'plants:write',
      iat: now,
      exp: now + 600,
      ...overrides,
    };
    // `undefined` stays: JSON drops the claim, and the issuer does not fill in a default for it.
    return all;
  };

  const signature = (input: string, signer: Signer): string => {
    const data = Buffer.from(input);
    if (signer.by === 'nobody') return signer.signature;
    if (signer.by === 'hmac')
      return createHmac(HASH[signer.alg], signer.secret).update(data).digest('base64url');
    if (signer.by === 'trusted')
      return cryptoSign('sha256', data, trusted.privateKey).toString('base64url');
    if (signer.alg === 'RS256') return cryptoSign('sha256', data, rsa).toString('base64url');
    if (signer.alg === 'ES256') {
      return cryptoSign('sha256', data, { key: ec, dsaEncoding: 'ieee-p1363' }).toString(
        'base64url',
      );
    }
    return cryptoSign(null, data, ed).toString('base64url');
  };

  const forge = (header: unknown, payload: unknown, signer: Signer): string => {
    const input = `${segment(header)}.${segment(payload)}`;
    return `${input}.${signature(input, signer)}`;
  };

  return {
    identity,
    now,
    valid,
    kid: String(issuerJwk.kid),
    issuerJwk,
    issuerPem: issuerKey.export({ type: 'spki', format: 'pem' }).toString(),
    issuerPkcs1Pem: issuerKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    attacker,
    trustedPem: trusted.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    claims,
    forge,
    signature,
    close: () => attacker.close(),
  };
}
