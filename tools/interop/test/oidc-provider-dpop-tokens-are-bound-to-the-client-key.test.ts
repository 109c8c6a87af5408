import {
  dpopBinding,
  memoryStore,
  type DpopOptions,
  type PlantServiceOptions,
  type Principal,
} from '@plantstore/core';
import { createDpopClient, type DpopClient } from '@plantstore/core/testing';
import type { ContractHost, Reply } from '@plantstore/http-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ed25519Signer, recording, type DpopSigner } from '../src/dpop-signer';
import { expectAnswer, expectInvalidToken } from '../src/expect-answer';
import {
  dpopMounts,
  expressMount,
  postPlant,
  postPlantWith,
  PUBLIC_URL,
  routeUrl,
  type Services,
} from '../src/plant-hosts';
import { API, CLIENTS, type Client } from '../src/provider-config';
import { jwtBearerFor, providerOfThisFile } from '../src/provider-of-this-file';
import { clientCredentials, decodeJwt, postTokenRequest } from '../src/token-endpoint';

// oidc-provider binds the tokens of a token request that carries a DPoP proof to the proof's key
// (RFC 9449 §5, §6): token_type DPoP, cnf.jkt in the JWT. Those tokens go to the route over HTTP with
// proofs signed by the client's key, and every way of misusing them is refused.

const ALGS = 'ES256 ES384 ES512 EdDSA Ed25519 PS256 PS384 PS512 RS256 RS384 RS512';
const NONCE_SECRET = 'a-nonce-secret-the-instances-share-32+';

const provider = providerOfThisFile();
let tokenEndpoint: string;
let es256: DpopClient;
let eddsa: DpopClient;
let stranger: DpopClient;
beforeAll(async () => {
  const discovery = await fetch(`${provider.issuer}/.well-known/openid-configuration`);
  ({ token_endpoint: tokenEndpoint } = (await discovery.json()) as { token_endpoint: string });
  [es256, eddsa, stranger] = await Promise.all([
    createDpopClient('ES256'),
    createDpopClient('EdDSA'),
    createDpopClient('ES256'),
  ]);
});

/** The provider's answer to a token request for `plants:write` with a proof signed by `signer`. */
function boundTokenResponse(signer: DpopSigner, client: Client = CLIENTS.es256) {
  return clientCredentials(
    provider.issuer,
    client,
    { scope: 'plants:write' },
    { dpop: signer, tokenEndpoint },
  );
}

/** A token bound to `signer`'s key, from the provider's token endpoint. */
async function boundToken(signer: DpopSigner, client: Client = CLIENTS.es256): Promise<string> {
  return (await boundTokenResponse(signer, client)).access_token;
}

async function bearerToken(client: Client = CLIENTS.es256): Promise<string> {
  return (await clientCredentials(provider.issuer, client, { scope: 'plants:write' })).access_token;
}

/** Asserts a 401 `invalid_dpop_proof` answer on the DPoP challenge. */
function expectInvalidProof(reply: Reply, description: string): void {
  expectDpopChallenge(
    reply,
    'invalid_dpop_proof',
    `The DPoP proof is not valid: ${description}`,
    description,
  );
}

/** Asserts a 401 answer with `message`, whose `error` and description are on the DPoP challenge. */
function expectDpopChallenge(
  reply: Reply,
  error: 'invalid_dpop_proof' | 'invalid_token',
  message: string,
  description: string,
): void {
  expectAnswer(reply, 401, { error: 401, message });
  expect(reply.headers['www-authenticate']).toBe(
    `Bearer realm="plantstore", DPoP realm="plantstore", error="${error}", ` +
      `error_description="${description}", algs="${ALGS}"`,
  );
}

describe('oidc-provider 9 binds its tokens to the DPoP key of the token request', () => {
  it('token_type DPoP, cnf.jkt the RFC 7638 thumbprint of the proof key, the rest an RFC 9068 token', async () => {
    const response = await boundTokenResponse(es256, CLIENTS.es256);
    expect(response).toMatchObject({ token_type: 'DPoP', scope: 'plants:write', requests: 1 });
    const { header, payload } = decodeJwt(response.access_token);
    expect(header).toStrictEqual({ alg: 'ES256', typ: 'at+jwt', kid: 'ec-1' });
    expect(payload['cnf']).toStrictEqual({ jkt: es256.jkt });
    expect(Object.keys(payload).sort()).toStrictEqual(
      ['aud', 'client_id', 'cnf', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub'].sort(),
    );
    expect(payload).toMatchObject({ aud: API, iss: provider.issuer, sub: CLIENTS.es256.id });
  });

  it('refuses a token request without a proof from a client registered with dpop_bound_access_tokens', async () => {
    const form = { grant_type: 'client_credentials', scope: 'plants:write', resource: API };
    const reply = await postTokenRequest(provider.issuer, CLIENTS.dpopOnly, form);
    expect(reply.status).toBe(400);
    expect(reply.body).toStrictEqual({
      error: 'invalid_grant',
      error_description: 'grant request is invalid',
    });
    const token = await boundToken(es256, CLIENTS.dpopOnly);
    expect(decodeJwt(token).payload['cnf']).toStrictEqual({ jkt: es256.jkt });
  });

  it('asks the nonce client for its own nonce first: 400 use_dpop_nonce with DPoP-Nonce, then the token', async () => {
    const form = { grant_type: 'client_credentials', scope: 'plants:write', resource: API };
    const target = { method: 'POST', url: tokenEndpoint };
    const first = await postTokenRequest(
      provider.issuer,
      CLIENTS.nonce,
      form,
      { dpop: await es256.proof(target) },
      tokenEndpoint,
    );
    expect(first.status).toBe(400);
    expect(first.body).toStrictEqual({
      error: 'use_dpop_nonce',
      error_description: 'nonce is required in the DPoP proof',
    });
    const nonce = first.headers.get('dpop-nonce') ?? '';
    expect(nonce).toMatch(/^[\w-]{43}$/u);
    const second = await postTokenRequest(
      provider.issuer,
      CLIENTS.nonce,
      form,
      { dpop: await es256.proof({ ...target, nonce }) },
      tokenEndpoint,
    );
    expect(second.status).toBe(200);
    expect(second.body['token_type']).toBe('DPoP');
    const token = String(second.body['access_token']);
    expect(decodeJwt(token).payload['cnf']).toStrictEqual({ jkt: es256.jkt });
  });
});

describe.each(dpopMounts)(
  'oidc-provider DPoP-bound tokens at the route, through $name',
  (mount) => {
    const rejected: string[] = [];
    const created: Principal[] = [];
    let host: ContractHost;
    let nextId = 1;
    const plant = () => ({ id: nextId++, name: 'Fern' });

    function service(dpop: DpopOptions | undefined): PlantServiceOptions {
      return {
        store: memoryStore(),
        auth: jwtBearerFor(provider, {
          requiredScopes: ['plants:write'],
          ...(dpop !== undefined && { dpop: dpopBinding(dpop) }),
        }),
        publicUrl: PUBLIC_URL,
        onRejected: (error) => void rejected.push(error.code),
        onCreated: (_plant, context) => void (context.principal && created.push(context.principal)),
      };
    }

    beforeAll(async () => {
      const services: Services = {
        '/dpop': service({}),
        '/required': service({ required: true }),
        '/nonce': service({ nonce: { secret: NONCE_SECRET } }),
        // DPoP off: the route takes Bearer tokens only.
        '/plain': service(undefined),
      };
      host = await mount.start(services);
    });
    afterAll(() => host.close());

    /** `POST {prefix}/plants` with a DPoP token and a proof of `signer` for the URL the client sent. */
    async function postWithProof(prefix: string, token: string, signer: DpopSigner = es256) {
      const proof = await signer.proof({ url: routeUrl(prefix), token });
      return postPlantWith(host, prefix, { authorization: `DPoP ${token}`, dpop: proof }, plant());
    }

    it.each<{ tokenAlg: string; proofAlg: string; client: Client; signer: () => DpopSigner }>([
      { tokenAlg: 'ES256', proofAlg: 'ES256', client: CLIENTS.es256, signer: () => es256 },
      { tokenAlg: 'RS256', proofAlg: 'EdDSA', client: CLIENTS.rs256, signer: () => eddsa },
      {
        tokenAlg: 'RS256',
        proofAlg: 'Ed25519',
        client: CLIENTS.rs256,
        signer: () => ed25519Signer(eddsa),
      },
    ])(
      'creates a plant with an $tokenAlg token bound to the key of $proofAlg proofs, sent as DPoP',
      async ({ tokenAlg, proofAlg, client, signer: signerOf }) => {
        const signer = signerOf();
        const sent: string[] = [];
        const token = await boundToken(recording(signer, sent), client);
        const { header, payload } = decodeJwt(token);
        expect(header['alg']).toBe(tokenAlg);
        expect(payload['cnf']).toStrictEqual({ jkt: signer.jkt });
        // The provider took a proof of that algorithm at its token endpoint, as the route does below.
        expect(decodeJwt(sent[0] ?? '').header).toStrictEqual({
          alg: proofAlg,
          typ: 'dpop+jwt',
          jwk: signer.publicJwk,
        });
        const body = { id: nextId++, name: 'Fern', tag: 'bound' };
        const headers = async () => signer.headers(token, { url: routeUrl('/dpop') });
        const first = await postPlantWith(host, '/dpop', await headers(), body);
        expectAnswer(first, 200, { name: 'Fern', tag: 'bound' });
        expect(first.headers['www-authenticate']).toBeUndefined();
        expect(created.at(-1)).toMatchObject({
          subject: client.id,
          claims: { cnf: { jkt: signer.jkt }, client_id: client.id },
        });
        // The same plant again, with a new proof: 200, as a replay of the request.
        expectAnswer(await postPlantWith(host, '/dpop', await headers(), body), 200, {
          name: 'Fern',
          tag: 'bound',
        });
      },
    );

    it('refuses the bound token sent as Bearer: 401 token_dpop_bound, with DPoP on and with it off', async () => {
      const token = await boundToken(es256);
      const description = 'The token is bound to a key; send it with the DPoP scheme and a proof';
      const reply = await postPlant(host, '/dpop', token, plant());
      expectAnswer(reply, 401, {
        error: 401,
        message: `The bearer token is not valid: ${description}`,
      });
      expect(reply.headers['www-authenticate']).toBe(
        `Bearer realm="plantstore", error="invalid_token", error_description="${description}", ` +
          `DPoP realm="plantstore", algs="${ALGS}"`,
      );
      expect(rejected.at(-1)).toBe('token_dpop_bound');
      // A route without DPoP refuses it too: taking it as a bearer token would undo the binding.
      expectInvalidToken(await postPlant(host, '/plain', token, plant()), description);
      expect(rejected.at(-1)).toBe('token_dpop_bound');
    });

    it('refuses a valid proof signed by another key than cnf.jkt: 401 dpop_proof_key_mismatch', async () => {
      const token = await boundToken(es256);
      expectInvalidProof(
        await postWithProof('/dpop', token, stranger),
        'The DPoP proof key is not the key the token is bound to',
      );
      expect(rejected.at(-1)).toBe('dpop_proof_key_mismatch');
    });

    it('refuses a proof used twice: 200, then 401 dpop_proof_replayed', async () => {
      const token = await boundToken(es256);
      const headers = await es256.headers(token, { url: routeUrl('/dpop') });
      expectAnswer(await postPlantWith(host, '/dpop', headers, { id: 500, name: 'Fern' }), 200, {
        name: 'Fern',
      });
      expectInvalidProof(
        await postPlantWith(host, '/dpop', headers, { id: 500, name: 'Fern' }),
        'The DPoP proof was used before',
      );
      expect(rejected.at(-1)).toBe('dpop_proof_replayed');
    });

    it("refuses the proof of the token request, replayed at the route: its htu is the provider's", async () => {
      const sent: string[] = [];
      const token = await boundToken(recording(es256, sent));
      expect(sent).toHaveLength(1);
      const proof = decodeJwt(sent[0] ?? '').payload;
      expect(proof).not.toHaveProperty('ath');
      expect(proof['htu']).toBe(tokenEndpoint);
      const reply = await postPlantWith(
        host,
        '/dpop',
        { authorization: `DPoP ${token}`, dpop: sent[0] ?? '' },
        plant(),
      );
      expectInvalidProof(reply, 'The DPoP proof htu is not the request URL');
      expect(rejected.at(-1)).toBe('dpop_proof_url_mismatch');
    });

    it('refuses a proof whose ath is the hash of another token of the provider: 401 dpop_proof_token_hash_mismatch', async () => {
      const [token, other] = [await boundToken(es256), await boundToken(es256)];
      const proof = await es256.proof({ url: routeUrl('/dpop'), token: other });
      const reply = await postPlantWith(
        host,
        '/dpop',
        { authorization: `DPoP ${token}`, dpop: proof },
        plant(),
      );
      expectInvalidProof(reply, 'The DPoP proof ath is not the hash of this token');
      expect(rejected.at(-1)).toBe('dpop_proof_token_hash_mismatch');
    });

    it("refuses the provider's Bearer token sent as DPoP with a proof: 401 token_not_dpop_bound", async () => {
      const token = await bearerToken();
      expect(decodeJwt(token).payload).not.toHaveProperty('cnf');
      const reply = await postWithProof('/dpop', token);
      const description = 'The token is not bound to a DPoP key';
      const message = `The bearer token is not valid: ${description}`;
      expectDpopChallenge(reply, 'invalid_token', message, description);
      expect(rejected.at(-1)).toBe('token_not_dpop_bound');
      // With DPoP on but not required, the same token as Bearer is taken.
      expectAnswer(await postPlant(host, '/dpop', token, { id: 600, name: 'Ivy' }), 200, {
        name: 'Ivy',
      });
    });

    it("with required: true, refuses the provider's Bearer tokens and takes its DPoP-bound ones", async () => {
      const reply = await postPlant(host, '/required', await bearerToken(), plant());
      const description = 'This resource accepts only DPoP-bound tokens';
      expectAnswer(reply, 401, {
        error: 401,
        message: `The bearer token is not valid: ${description}`,
      });
      expect(reply.headers['www-authenticate']).toBe(
        `DPoP realm="plantstore", error="invalid_token", error_description="${description}", algs="${ALGS}"`,
      );
      expect(rejected.at(-1)).toBe('dpop_required');
      // The client the provider registered with dpop_bound_access_tokens: bound on both sides.
      const token = await boundToken(es256, CLIENTS.dpopOnly);
      expectAnswer(await postWithProof('/required', token), 200, { name: 'Fern' });
    });

    it('with nonces on, asks for its nonce (401 use_dpop_nonce, DPoP-Nonce) and takes the retry', async () => {
      const token = await boundToken(es256);
      const first = await postWithProof('/nonce', token);
      const description = 'The resource server requires a nonce in the DPoP proof';
      expectAnswer(first, 401, { error: 401, message: `${description}.` });
      expect(first.headers['www-authenticate']).toBe(
        `Bearer realm="plantstore", DPoP realm="plantstore", error="use_dpop_nonce", ` +
          `error_description="${description}", algs="${ALGS}"`,
      );
      const nonce = first.headers['dpop-nonce'];
      expect(nonce).toMatch(/^[\w-]{43}$/u);
      expect(rejected.at(-1)).toBe('dpop_nonce_missing');
      const headers = await es256.headers(token, { url: routeUrl('/nonce'), nonce: String(nonce) });
      expectAnswer(await postPlantWith(host, '/nonce', headers, plant()), 200, { name: 'Fern' });
    });

    it("keeps the provider's nonce and the route's apart: the provider's is refused at the route", async () => {
      // The client's token request needed the provider's nonce (400 use_dpop_nonce, then a retry).
      const response = await boundTokenResponse(es256, CLIENTS.nonce);
      expect(response.requests).toBe(2);
      const providerNonce = response.providerNonce ?? '';
      const token = response.access_token;
      const withProviderNonce = await es256.headers(token, {
        url: routeUrl('/nonce'),
        nonce: providerNonce,
      });
      const refused = await postPlantWith(host, '/nonce', withProviderNonce, plant());
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toContain(
        'error="use_dpop_nonce", error_description="The DPoP proof nonce is not current"',
      );
      expect(rejected.at(-1)).toBe('dpop_nonce_invalid');
      const routeNonce = String(refused.headers['dpop-nonce']);
      expect(routeNonce).not.toBe(providerNonce);
      const headers = await es256.headers(token, { url: routeUrl('/nonce'), nonce: routeNonce });
      expectAnswer(await postPlantWith(host, '/nonce', headers, plant()), 200, { name: 'Fern' });
    });

    it('refuses the proofs of a client whose clock is 2 minutes behind, which the provider takes', async () => {
      // oidc-provider accepts a proof iat up to 300 s either side of its clock (and skips the check
      // when the proof carries its nonce); the route takes 60 s back (maxProofAge) and 5 s ahead.
      const late: DpopSigner = {
        ...es256,
        proof: (target) => es256.proof(target, { issuedAt: -120 }),
      };
      const token = await boundToken(late);
      expect(decodeJwt(token).payload['cnf']).toStrictEqual({ jkt: es256.jkt });
      expectInvalidProof(
        await postWithProof('/dpop', token, late),
        'The DPoP proof was issued too long ago',
      );
      expect(rejected.at(-1)).toBe('dpop_proof_expired');
    });
  },
);

describe('oidc-provider DPoP-bound tokens through plantRouter mounted at a prefix of Express 5', () => {
  let host: ContractHost;
  beforeAll(async () => {
    host = await expressMount.start({
      '/dpop': {
        store: memoryStore(),
        auth: jwtBearerFor(provider, { dpop: dpopBinding() }),
        publicUrl: PUBLIC_URL,
      },
    });
  });
  afterAll(() => host.close());

  // plantRouter hands the core `req.originalUrl`: the proof must name the URL the client sent, mount
  // point included, and one for the stripped path is refused.
  it('takes a proof for the URL the client sent, and refuses one for the stripped path', async () => {
    const token = await boundToken(es256);
    const sent = await es256.headers(token, { url: routeUrl('/dpop') });
    expectAnswer(await postPlantWith(host, '/dpop', sent, { id: 1, name: 'Fern' }), 200, {
      name: 'Fern',
    });
    const stripped = await es256.headers(token, { url: `${PUBLIC_URL}/plants` });
    expectInvalidProof(
      await postPlantWith(host, '/dpop', stripped, { id: 2, name: 'Fern' }),
      'The DPoP proof htu is not the request URL',
    );
  });
});
