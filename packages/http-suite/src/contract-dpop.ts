import type { OutgoingHttpHeaders } from 'node:http';
import {
  jwtBearer,
  memoryStore,
  type MemoryStore,
  MissingTokenError,
  type PlantServiceError,
} from '@plantstore/core';
import {
  createDpopClient,
  type DpopClient,
  type DpopProofTarget,
  type TokenIssuer,
} from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, send } from './client/send';
import type { ContractAuth } from './contract-setup';
import type { ContractHost, ContractTarget } from './hosts/target';

const PUBLIC_URL = 'https://api.example.com';
/** The resource tokens are asked for: their `aud`, and the metadata's `resource`. */
const RESOURCE = `${PUBLIC_URL}/plants`;
const METADATA_PATHS = [
  '/.well-known/oauth-protected-resource/plants',
  '/.well-known/oauth-protected-resource',
] as const;
const METADATA_URL = `${PUBLIC_URL}${METADATA_PATHS[0]}`;
const ALGS = 'ES256 ES384 ES512 EdDSA Ed25519 PS256 PS384 PS512 RS256 RS384 RS512';
const SCOPE = 'plants:write';
const RESOURCE_NAME = 'Plantstore contract';
const JSON_TYPE = 'application/json; charset=utf-8';
/** Both challenges as every answer without credentials offers them. */
const BEARER = `Bearer realm="plantstore", resource_metadata="${METADATA_URL}"`;
const DPOP = `DPoP realm="plantstore", algs="${ALGS}", resource_metadata="${METADATA_URL}"`;

/** The headers the DPoP and metadata answers are compared on, each present or absent as expected. */
const NAMED_HEADERS = [
  'content-type',
  'cache-control',
  'vary',
  'www-authenticate',
  'dpop-nonce',
  'allow',
] as const;

interface View {
  readonly status: number;
  readonly headers: Readonly<Record<(typeof NAMED_HEADERS)[number], unknown>>;
  readonly body: string;
}

function view(reply: Reply): View {
  const headers = Object.fromEntries(NAMED_HEADERS.map((name) => [name, reply.headers[name]]));
  return { status: reply.status, headers: headers as View['headers'], body: reply.text };
}

function answer(
  status: number,
  headers: Partial<View['headers']>,
  body: unknown,
  route = true,
): View {
  const base = route
    ? { 'content-type': JSON_TYPE, 'cache-control': 'no-store', vary: 'Authorization' }
    : {};
  return {
    status,
    headers: {
      'content-type': undefined,
      'cache-control': undefined,
      vary: undefined,
      'www-authenticate': undefined,
      'dpop-nonce': undefined,
      allow: undefined,
      ...base,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** 401 `invalid_dpop_proof`: the error goes on the DPoP challenge, the request's scheme. */
function proofRefused(description: string): View {
  return answer(
    401,
    {
      'www-authenticate': `${BEARER}, DPoP realm="plantstore", error="invalid_dpop_proof", error_description="${description}", algs="${ALGS}", resource_metadata="${METADATA_URL}"`,
    },
    { error: 401, message: `The DPoP proof is not valid: ${description}` },
  );
}

/**
 * Registers the DPoP (RFC 9449) and RFC 9728 cases of the contract: a second host of the same target,
 * its route accepting DPoP with server nonces, `publicUrl` `https://api.example.com` and the metadata
 * on. Proofs name the public URL of the path the client sent, mount path included, so a host that
 * hands the core a path stripped of its mount point fails here; the metadata is asked for at the
 * host's root.
 *
 * @param target - how to start the entry
 * @param issuerOf - the suite's token issuer, there once its `beforeAll` has run
 */
export function describeDpopContract(target: ContractTarget, issuerOf: () => TokenIssuer): void {
  describe('DPoP (RFC 9449) and RFC 9728 metadata', () => {
    let issuer: TokenIssuer;
    let host: ContractHost;
    let store: MemoryStore;
    let client: DpopClient;
    let other: DpopClient;
    /** `/api`, `/api/v1`, or `''` at the root. */
    let mountPath = '';
    let htu = '';
    /** The server's nonce, once the first proof was answered 401 `use_dpop_nonce`. */
    let nonce: string | undefined;
    let asked: Reply;
    const rejected: PlantServiceError[] = [];
    let nextId = 5000;

    const bound = (): Promise<string> =>
      issuer.sign({ aud: RESOURCE, scope: SCOPE }, { boundTo: client });
    const post = (headers: OutgoingHttpHeaders, plantId = nextId++): Promise<Reply> =>
      send(host.url, {
        body: `{"id":${plantId},"name":"Fern"}`,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const proven = async (
      token: string,
      target_: Partial<DpopProofTarget> = {},
      by: DpopClient = client,
    ): Promise<OutgoingHttpHeaders> => ({
      authorization: `DPoP ${token}`,
      dpop: await by.proof({
        url: htu,
        token,
        ...(nonce === undefined ? {} : { nonce }),
        ...target_,
      }),
    });
    const atRoot = (method: string, path: string, body?: string): Promise<Reply> =>
      send(new URL(host.url).origin, {
        method,
        path,
        body,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      });

    beforeAll(async () => {
      issuer = issuerOf();
      const auth: ContractAuth = {
        jwksUri: issuer.jwksUri,
        issuer: issuer.issuer,
        audience: RESOURCE,
        requiredScopes: [SCOPE],
        // An hour: the nonce asked for here stays good for every case of the run.
        dpop: { nonce: { lifetime: 3600 } },
      };
      store = memoryStore();
      [client, other] = await Promise.all([createDpopClient('ES256'), createDpopClient('EdDSA')]);
      host = await target.start(
        {
          store,
          auth: jwtBearer(auth),
          publicUrl: PUBLIC_URL,
          resourceMetadata: { resourceName: RESOURCE_NAME },
          onRejected: (error) => void rejected.push(error),
        },
        { auth },
      );
      mountPath = new URL(host.url).pathname.replace(/\/$/u, '');
      htu = `${PUBLIC_URL}${mountPath}/plants`;
      asked = await post(await proven(await bound()));
      nonce = String(asked.headers['dpop-nonce']);
    });

    afterAll(async () => {
      await host?.close();
    });

    it('offers Bearer and DPoP, each naming the metadata, when no credentials are sent', async () => {
      expect(view(await post({}))).toStrictEqual(
        answer(
          401,
          { 'www-authenticate': `${BEARER}, ${DPOP}` },
          { error: 401, message: new MissingTokenError().message },
        ),
      );
      expect(rejected.at(-1)?.code).toBe('token_missing');
    });

    it('asks for a nonce with 401 use_dpop_nonce and DPoP-Nonce, and creates the plant on the retry', async () => {
      expect(nonce).toMatch(/^[\w-]+$/u);
      expect(view(asked)).toStrictEqual(
        answer(
          401,
          {
            'www-authenticate': `${BEARER}, DPoP realm="plantstore", error="use_dpop_nonce", error_description="The resource server requires a nonce in the DPoP proof", algs="${ALGS}", resource_metadata="${METADATA_URL}"`,
            'dpop-nonce': nonce,
          },
          { error: 401, message: 'The resource server requires a nonce in the DPoP proof.' },
        ),
      );
      const plantId = nextId++;
      const retry = await post(await proven(await bound()), plantId);
      expect(view(retry)).toStrictEqual(answer(200, {}, { name: 'Fern' }));
      expect(store.get(BigInt(plantId))?.name).toBe('Fern');
    });

    it('creates a plant with a bound token and a proof for the public URL of the path sent', async () => {
      const plantId = nextId++;
      expect(view(await post(await proven(await bound()), plantId))).toStrictEqual(
        answer(200, {}, { name: 'Fern' }),
      );
      expect(store.get(BigInt(plantId))).toEqual({ id: BigInt(plantId), name: 'Fern' });
    });

    it('refuses a replayed proof 401 invalid_dpop_proof', async () => {
      const headers = await proven(await bound());
      expect((await post(headers)).status).toBe(200);
      expect(view(await post(headers))).toStrictEqual(
        proofRefused('The DPoP proof was used before'),
      );
      expect(rejected.at(-1)?.code).toBe('dpop_proof_replayed');
    });

    it('refuses a proof whose htu names another host', async () => {
      const headers = await proven(await bound(), {
        url: `https://other.example.com${mountPath}/plants`,
      });
      expect(view(await post(headers))).toStrictEqual(
        proofRefused('The DPoP proof htu is not the request URL'),
      );
      expect(rejected.at(-1)?.code).toBe('dpop_proof_url_mismatch');
    });

    it('refuses a proof whose htu names the Host and X-Forwarded-Host sent with it', async () => {
      const headers = await proven(await bound(), {
        url: `https://evil.example${mountPath}/plants`,
      });
      const reply = await post({
        ...headers,
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      });
      expect(view(reply)).toStrictEqual(proofRefused('The DPoP proof htu is not the request URL'));
      expect(rejected.at(-1)?.code).toBe('dpop_proof_url_mismatch');
    });

    it('refuses a proof whose htu leaves out the mount path (or adds one)', async () => {
      const path = mountPath === '' ? '/api/plants' : '/plants';
      const headers = await proven(await bound(), { url: `${PUBLIC_URL}${path}` });
      expect(view(await post(headers))).toStrictEqual(
        proofRefused('The DPoP proof htu is not the request URL'),
      );
      expect(rejected.at(-1)?.code).toBe('dpop_proof_url_mismatch');
    });

    it('refuses a proof whose ath is the hash of another token', async () => {
      const headers = await proven(await bound(), { token: await bound() });
      expect(view(await post(headers))).toStrictEqual(
        proofRefused('The DPoP proof ath is not the hash of this token'),
      );
      expect(rejected.at(-1)?.code).toBe('dpop_proof_token_hash_mismatch');
    });

    it('refuses a proof by another key than the cnf.jkt of the token', async () => {
      const headers = await proven(await bound(), {}, other);
      expect(view(await post(headers))).toStrictEqual(
        proofRefused('The DPoP proof key is not the key the token is bound to'),
      );
      expect(rejected.at(-1)?.code).toBe('dpop_proof_key_mismatch');
    });

    it('refuses a bound token sent as Bearer 401 invalid_token, offering both schemes', async () => {
      const description = 'The token is bound to a key; send it with the DPoP scheme and a proof';
      expect(view(await post({ authorization: `Bearer ${await bound()}` }))).toStrictEqual(
        answer(
          401,
          {
            'www-authenticate': `Bearer realm="plantstore", error="invalid_token", error_description="${description}", resource_metadata="${METADATA_URL}", ${DPOP}`,
          },
          { error: 401, message: `The bearer token is not valid: ${description}` },
        ),
      );
      expect(rejected.at(-1)?.code).toBe('token_dpop_bound');
    });

    it.each(METADATA_PATHS)('serves the metadata at %s for GET and HEAD', async (path) => {
      const document = JSON.stringify({
        resource: RESOURCE,
        authorization_servers: [issuer.issuer],
        scopes_supported: [SCOPE],
        bearer_methods_supported: ['header'],
        dpop_signing_alg_values_supported: ALGS.split(' '),
        dpop_bound_access_tokens_required: false,
        resource_name: RESOURCE_NAME,
      });
      const headers = { 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=3600' };
      expect(view(await atRoot('GET', path))).toStrictEqual(answer(200, headers, document, false));
      expect(view(await atRoot('HEAD', path))).toStrictEqual(answer(200, headers, '', false));
    });

    it.each(METADATA_PATHS)('answers POST %s 405 with Allow: GET, HEAD', async (path) => {
      expect(view(await atRoot('POST', path, '{}'))).toStrictEqual(
        answer(
          405,
          { allow: 'GET, HEAD' },
          { error: 405, message: 'Only GET, HEAD are allowed here.' },
        ),
      );
    });
  });
}
