import { createHash, KeyObject, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWK } from 'jose';

/** Key types a {@link DpopClient} can sign proofs with. */
export type DpopClientAlgorithm = 'ES256' | 'ES384' | 'EdDSA' | 'RS256' | 'PS256';

/** The request a proof is made for. */
export interface DpopProofTarget {
  /** `htm`. Default `POST`. */
  readonly method?: string;
  /** `htu`: the URL the request goes to; query and fragment are left out of the proof. */
  readonly url: string;
  /** The access token sent with the proof, for `ath`. */
  readonly token?: string;
  /** The server's nonce (`DPoP-Nonce`), for `nonce`. */
  readonly nonce?: string;
}

/** Changes to a proof, for tests of what the route refuses. */
export interface DpopProofOptions {
  /** Claims to add or replace; `undefined` removes one (`{ ath: undefined }`). */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** Header fields to add or replace (`typ`, `jwk`); `alg` stays the signing key's. */
  readonly header?: Readonly<Record<string, unknown>>;
  /** `iat`, in seconds from now (negative: in the past). Default 0. */
  readonly issuedAt?: number;
  /** Sign with another client's key while the header names this client's key. */
  readonly signWith?: DpopClient;
}

/** A DPoP client for tests: a key pair, its thumbprint, and proofs signed with it. */
export interface DpopClient {
  /** The `alg` its proofs are signed with. */
  readonly algorithm: DpopClientAlgorithm;
  /** The public key, as proofs carry it in `jwk`. */
  readonly publicJwk: JWK;
  /** The RFC 7638 thumbprint of the key: a bound token names it in `cnf.jkt`. */
  readonly jkt: string;
  /** The private key, for tests that need to sign something else with it. */
  readonly privateKey: KeyObject;
  /** Signs a proof for one request, with a fresh `jti`. */
  proof(target: DpopProofTarget, options?: DpopProofOptions): Promise<string>;
  /** The `Authorization` and `DPoP` headers of one request with `token`. */
  headers(token: string, target: Omit<DpopProofTarget, 'token'>): Promise<Record<string, string>>;
}

function thumbprint(jwk: JWK): string {
  const members =
    jwk.kty === 'RSA'
      ? ['e', 'kty', 'n']
      : jwk.kty === 'OKP'
        ? ['crv', 'kty', 'x']
        : ['crv', 'kty', 'x', 'y'];
  const canonical = Object.fromEntries(members.map((member) => [member, jwk[member as keyof JWK]]));
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url');
}

function withoutQuery(url: string): string {
  const end = url.search(/[?#]/u);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Creates a DPoP client with a new key pair: it signs RFC 9449 proofs for the requests of a test, and
 * its `jkt` binds a token to its key (`issuer.sign({}, { boundTo: client })`).
 *
 * @param algorithm - the key type and `alg` of its proofs. Default `ES256`.
 * @returns the client
 * @example
 * ```ts
 * const client = await createDpopClient();
 * const token = await issuer.sign({ scope: 'plants:write' }, { boundTo: client });
 * const headers = await client.headers(token, { url: 'https://api.example.com/plants' });
 * await fetch(`${base}/plants`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
 * ```
 */
export async function createDpopClient(
  algorithm: DpopClientAlgorithm = 'ES256',
): Promise<DpopClient> {
  const pair = await generateKeyPair(algorithm, { extractable: true, modulusLength: 2048 });
  const publicJwk = await exportJWK(pair.publicKey);
  const privateKey = KeyObject.from(pair.privateKey);
  const client: DpopClient = {
    algorithm,
    publicJwk,
    jkt: thumbprint(publicJwk),
    privateKey,
    async proof(target, options = {}) {
      const claims: Record<string, unknown> = {
        jti: randomUUID(),
        htm: target.method ?? 'POST',
        htu: withoutQuery(target.url),
        iat: Math.floor(Date.now() / 1000) + (options.issuedAt ?? 0),
      };
      if (target.token !== undefined) {
        claims['ath'] = createHash('sha256').update(target.token).digest('base64url');
      }
      if (target.nonce !== undefined) claims['nonce'] = target.nonce;
      for (const [name, value] of Object.entries(options.claims ?? {})) {
        if (value === undefined) delete claims[name];
        else claims[name] = value;
      }
      const signer = options.signWith ?? client;
      return new SignJWT(claims)
        .setProtectedHeader({
          typ: 'dpop+jwt',
          jwk: publicJwk,
          ...options.header,
          alg: signer.algorithm,
        })
        .sign(signer.privateKey);
    },
    async headers(token, target) {
      return { authorization: `DPoP ${token}`, dpop: await client.proof({ ...target, token }) };
    },
  };
  return client;
}
