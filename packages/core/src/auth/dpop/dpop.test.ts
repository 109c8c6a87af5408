import { createHash, randomUUID, sign } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtBearer } from '../jwt/jwt-bearer';
import type { DpopOptions } from './options/dpop-options';
import { dpopBinding } from './dpop-binding';
import { createPlantService, type PlantService } from '../../service/service';
import type { PlantServiceOptions } from '../../service/service-options';
import { createNodeHandler } from '../../service/node-handler';
import { memoryStore } from '../../plant/memory-store';
import { memoryReplayStore } from './memory-replay-store';
import type { ReplayStore } from './replay-store';
import { createTokenIssuer, type TokenIssuer } from '../../testing/token-issuer';
import {
  createDpopClient,
  type DpopClient,
  type DpopProofOptions,
} from '../../testing/dpop-client';

const PUBLIC = 'https://api.example.com';
const HTU = `${PUBLIC}/plants`;
const ALGS = 'ES256 ES384 ES512 EdDSA Ed25519 PS256 PS384 PS512 RS256 RS384 RS512';
const HEADERS = {
  'cache-control': 'no-store',
  'content-type': 'application/json; charset=utf-8',
  vary: 'Authorization',
};

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

let issuer: TokenIssuer;
let client: DpopClient;
let other: DpopClient;
const servers: Server[] = [];
let nextId = 1;

beforeAll(async () => {
  [issuer, client, other] = await Promise.all([
    createTokenIssuer({ algorithm: 'ES256' }),
    createDpopClient('ES256'),
    createDpopClient('EdDSA'),
  ]);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await issuer.close();
});

/** The test issuer's key set, issuer and audience, as `jwtBearer` takes them. */
const issuerOptions = () => ({
  jwksUri: issuer.jwksUri,
  issuer: issuer.issuer,
  audience: issuer.audience,
});

async function start(
  dpop: DpopOptions | true,
  extra: Partial<PlantServiceOptions> = {},
  now?: () => number,
): Promise<{ url: string; service: PlantService }> {
  const service = createPlantService({
    logger: false,
    store: memoryStore(),
    auth: jwtBearer({
      ...issuerOptions(),
      dpop: dpopBinding(dpop === true ? {} : dpop),
      ...(now === undefined ? {} : { now }),
    }),
    publicUrl: PUBLIC,
    ...extra,
  });
  const server = createServer(createNodeHandler(service));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, service };
}

/** A request's headers: `token` and a proof of it for HTU, made with `options`. */
const proved =
  (options: DpopProofOptions) =>
  async (token: string): Promise<Record<string, string>> => ({
    authorization: `DPoP ${token}`,
    dpop: await client.proof({ url: HTU, token }, options),
  });

function send(
  base: string,
  headers: Record<string, string | string[]>,
  options: { method?: string; path?: string; body?: string } = {},
): Promise<Reply> {
  const body = options.body ?? JSON.stringify({ id: nextId++, name: 'Fern' });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${base}${options.path ?? '/plants'}`,
      {
        method: options.method ?? 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const rest = { ...response.headers };
          for (const name of ['date', 'connection', 'keep-alive']) delete rest[name];
          resolve({
            status: response.statusCode ?? 0,
            headers: rest,
            body: text === '' ? undefined : JSON.parse(text),
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A proof of `token` by `client`, valid but for a `crit` header naming an extension. */
function withCritical(token: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: client.publicJwk, crit: ['exp'], exp: 1 };
  const payload = {
    jti: randomUUID(),
    htm: 'POST',
    htu: HTU,
    iat: Math.floor(Date.now() / 1000),
    ath: createHash('sha256').update(token).digest('base64url'),
  };
  const input = `${encode(header)}.${encode(payload)}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: client.privateKey,
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${signature.toString('base64url')}`;
}

const bound = (claims: Record<string, unknown> = {}, by: DpopClient = client) =>
  issuer.sign(claims, { boundTo: by });

function proofError(code: string, description: string): (reply: Reply) => void {
  return (reply) => {
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(
      `Bearer realm="plantstore", DPoP realm="plantstore", error="invalid_dpop_proof", error_description="${description}", algs="${ALGS}"`,
    );
    expect(reply.body).toStrictEqual({
      error: 401,
      message: `The DPoP proof is not valid: ${description}`,
    });
    expect(code).toMatch(/^dpop_proof_/u);
  };
}

describe('DPoP (RFC 9449) on the node entry', () => {
  it('creates a plant with a bound token and a valid proof', async () => {
    const { url } = await start(true);
    const token = await bound();
    const reply = await send(url, await client.headers(token, { url: HTU }));
    expect(reply.status).toBe(200);
    expect(reply.headers).toMatchObject(HEADERS);
  });

  it('compares htu after RFC 3986 normalisation and without the query', async () => {
    const { url } = await start(true);
    const token = await bound();
    const proof = await client.proof({
      url: 'HTTPS://API.Example.COM:443/./pl%61nts',
      token,
    });
    const reply = await send(url, { authorization: `DPoP ${token}`, dpop: proof });
    expect(reply.status).toBe(200);
    const withQuery = await send(url, await client.headers(token, { url: `${HTU}?x=1` }), {
      path: '/plants?x=1',
    });
    expect(withQuery.status).toBe(200);
  });

  it('never takes the URL from Host or X-Forwarded-Host: a proof for the forged host is refused', async () => {
    const { url } = await start(true);
    const token = await bound();
    const headers = await client.headers(token, { url: 'https://evil.example/plants' });
    const reply = await send(url, {
      ...headers,
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    proofError('dpop_proof_url_mismatch', 'The DPoP proof htu is not the request URL')(reply);
  });

  it('refuses a proof replayed, on the same instance and on another sharing the replay store', async () => {
    const replayStore = memoryReplayStore();
    const first = await start({ replayStore });
    const second = await start({ replayStore });
    const token = await bound();
    const headers = await client.headers(token, { url: HTU });
    expect((await send(first.url, headers)).status).toBe(200);
    const again = await send(first.url, headers);
    proofError('dpop_proof_replayed', 'The DPoP proof was used before')(again);
    proofError(
      'dpop_proof_replayed',
      'The DPoP proof was used before',
    )(await send(second.url, headers));
  });

  it('refuses a proof replayed at a slower instance after one 4 s ahead pruned the keys it holds', async () => {
    const replayStore = memoryReplayStore();
    const iat = Math.floor(Date.now() / 1000);
    // The slow instance 62 s after iat, within the 60 s and the 5 s tolerance; the fast one 4 s
    // ahead of it, a skew within the tolerance, where the proof is too old.
    const slowNow = (iat + 62) * 1000;
    const slow = await start({ replayStore }, {}, () => slowNow);
    const fast = await start({ replayStore }, {}, () => slowNow + 4_000);
    const token = await bound();
    const captured = await proved({ claims: { iat } })(token);
    expect((await send(slow.url, captured)).status).toBe(200);
    // Any proof the fast instance accepts makes the store forget what has expired by its clock.
    const fresh = await proved({ claims: { iat: iat + 66 } })(token);
    expect((await send(fast.url, fresh)).status).toBe(200);
    proofError(
      'dpop_proof_replayed',
      'The DPoP proof was used before',
    )(await send(slow.url, captured));
  });

  it.each<[string, string, string, (token: string) => Promise<Record<string, string>>]>([
    [
      'htu for another host',
      'dpop_proof_url_mismatch',
      'The DPoP proof htu is not the request URL',
      async (token) => client.headers(token, { url: 'https://other.example.com/plants' }),
    ],
    [
      'htu for another path',
      'dpop_proof_url_mismatch',
      'The DPoP proof htu is not the request URL',
      async (token) => client.headers(token, { url: `${PUBLIC}/admin` }),
    ],
    [
      'htm of another method',
      'dpop_proof_method_mismatch',
      'The DPoP proof htm is not the request method',
      async (token) => client.headers(token, { url: HTU, method: 'GET' }),
    ],
    [
      'ath for another token',
      'dpop_proof_token_hash_mismatch',
      'The DPoP proof ath is not the hash of this token',
      async (token) => ({
        authorization: `DPoP ${token}`,
        dpop: await client.proof({ url: HTU, token: await bound() }),
      }),
    ],
    [
      'no ath',
      'dpop_proof_token_hash_mismatch',
      'The DPoP proof ath is not the hash of this token',
      proved({ claims: { ath: undefined } }),
    ],
    [
      'a proof of another key than cnf.jkt',
      'dpop_proof_key_mismatch',
      'The DPoP proof key is not the key the token is bound to',
      async (token) => other.headers(token, { url: HTU }),
    ],
    [
      'a signature by another key than the jwk it carries',
      'dpop_proof_signature_invalid',
      'The DPoP proof signature does not verify',
      async (token) => ({
        authorization: `DPoP ${token}`,
        dpop: await client.proof(
          { url: HTU, token },
          { signWith: await createDpopClient('ES256') },
        ),
      }),
    ],
    [
      'an iat two minutes old',
      'dpop_proof_expired',
      'The DPoP proof was issued too long ago',
      proved({ issuedAt: -120 }),
    ],
    [
      'an iat a minute ahead',
      'dpop_proof_not_yet_valid',
      'The DPoP proof is issued in the future',
      proved({ issuedAt: 60 }),
    ],
    [
      'an iat that is not a number',
      'dpop_proof_claim_invalid',
      'The DPoP proof lacks jti, htm, htu or iat',
      proved({ claims: { iat: String(Math.floor(Date.now() / 1000)) } }),
    ],
    [
      'a critical extension nothing here supports',
      'dpop_proof_malformed',
      'The DPoP proof header names a critical extension this resource does not support',
      // Signed by hand: jose's signer refuses to write a crit it does not know either.
      (token) => Promise.resolve({ authorization: `DPoP ${token}`, dpop: withCritical(token) }),
    ],
    [
      'typ JWT',
      'dpop_proof_type_mismatch',
      'The DPoP proof typ must be dpop+jwt',
      proved({ header: { typ: 'JWT' } }),
    ],
    [
      'a private key in jwk',
      'dpop_proof_key_invalid',
      'The DPoP proof must carry a public jwk',
      // The client exists once beforeAll has run: its key is read when the row runs.
      async (token) => proved({ header: { jwk: { ...client.publicJwk, d: 'AAAA' } } })(token),
    ],
    [
      'no jti',
      'dpop_proof_claim_invalid',
      'The DPoP proof lacks jti, htm, htu or iat',
      proved({ claims: { jti: undefined } }),
    ],
    [
      'no proof',
      'dpop_proof_missing',
      'The request has no DPoP proof header',
      (token) => Promise.resolve({ authorization: `DPoP ${token}` }),
    ],
    [
      'a proof that is not a JWS',
      'dpop_proof_malformed',
      'The DPoP proof is not a compact JWS',
      (token) => Promise.resolve({ authorization: `DPoP ${token}`, dpop: 'not-a-jws' }),
    ],
  ])('refuses %s: 401 invalid_dpop_proof', async (_case, code, description, headersOf) => {
    const { url } = await start(true);
    const token = await bound();
    proofError(code, description)(await send(url, await headersOf(token)));
  });

  it('refuses a proof signed with a MAC', async () => {
    const { url } = await start(true);
    const token = await bound();
    const mac = await new SignJWT({
      jti: 'x',
      htm: 'POST',
      htu: HTU,
      iat: Math.floor(Date.now() / 1000),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: client.publicJwk })
      .sign(new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!!'));
    proofError(
      'dpop_proof_algorithm_not_allowed',
      'The DPoP proof is signed with an algorithm not allowed',
    )(await send(url, { authorization: `DPoP ${token}`, dpop: mac }));
  });

  it('checks a proof whose header it has seen before as fully as the first: key binding and signature', async () => {
    const { url } = await start(true);
    const token = await bound();
    expect((await send(url, await client.headers(token, { url: HTU }))).status).toBe(200);
    // The same header, now beside a token bound to another key.
    proofError(
      'dpop_proof_key_mismatch',
      'The DPoP proof key is not the key the token is bound to',
    )(await send(url, await client.headers(await bound({}, other), { url: HTU })));
    // The same header, over a signature made by another key.
    const forged = await client.proof(
      { url: HTU, token },
      { signWith: await createDpopClient('ES256') },
    );
    proofError(
      'dpop_proof_signature_invalid',
      'The DPoP proof signature does not verify',
    )(await send(url, { authorization: `DPoP ${token}`, dpop: forged }));
    expect((await send(url, await client.headers(token, { url: HTU }))).status).toBe(200);
  });

  it('refuses two DPoP headers', async () => {
    const { url } = await start(true);
    const token = await bound();
    const dpop = [await client.proof({ url: HTU, token }), await client.proof({ url: HTU, token })];
    const reply = await send(url, { authorization: `DPoP ${token}`, dpop });
    proofError('dpop_proof_repeated', 'The request must carry exactly one DPoP header')(reply);
  });

  it('refuses a bound token sent as Bearer, and an unbound one sent as DPoP', async () => {
    const { url } = await start(true);
    const downgrade = await send(url, { authorization: `Bearer ${await bound()}` });
    expect(downgrade.status).toBe(401);
    expect(downgrade.headers['www-authenticate']).toBe(
      `Bearer realm="plantstore", error="invalid_token", error_description="The token is bound to a key; send it with the DPoP scheme and a proof", DPoP realm="plantstore", algs="${ALGS}"`,
    );
    const plain = await issuer.sign();
    const unbound = await send(url, await client.headers(plain, { url: HTU }));
    expect(unbound.status).toBe(401);
    expect(unbound.headers['www-authenticate']).toBe(
      `Bearer realm="plantstore", DPoP realm="plantstore", error="invalid_token", error_description="The token is not bound to a DPoP key", algs="${ALGS}"`,
    );
    expect((await send(url, { authorization: `Bearer ${plain}` })).status).toBe(200);
  });

  it('refuses a bound token sent as Bearer even with DPoP off', async () => {
    const service = createPlantService({
      logger: false,
      store: memoryStore(),
      auth: jwtBearer(issuerOptions()),
    });
    const answer = await service.handle({
      method: 'POST',
      path: '/plants',
      headers: { authorization: `Bearer ${await bound()}`, 'content-type': 'application/json' },
      body: '{"id":1,"name":"Fern"}',
    });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="invalid_token", error_description="The token is bound to a key; send it with the DPoP scheme and a proof"',
    );
  });

  it('with required: refuses plain Bearer, and offers only DPoP', async () => {
    const { url } = await start({ required: true });
    const reply = await send(url, { authorization: `Bearer ${await issuer.sign()}` });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(
      `DPoP realm="plantstore", error="invalid_token", error_description="This resource accepts only DPoP-bound tokens", algs="${ALGS}"`,
    );
    const none = await send(url, {});
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe(`DPoP realm="plantstore", algs="${ALGS}"`);
  });

  it('offers both schemes, without error attributes, when no credentials were sent', async () => {
    const { url } = await start({ algorithms: ['ES256', 'EdDSA'] });
    const reply = await send(url, {});
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", DPoP realm="plantstore", algs="ES256 EdDSA"',
    );
  });

  it('answers a DPoP proof beside a Bearer token 400 invalid_request', async () => {
    const { url } = await start(true);
    const token = await issuer.sign();
    const reply = await send(url, {
      authorization: `Bearer ${token}`,
      dpop: await client.proof({ url: HTU, token }),
    });
    expect(reply.status).toBe(400);
    expect(reply.headers['www-authenticate']).toBe(
      `Bearer realm="plantstore", error="invalid_request", error_description="A DPoP proof was sent with the Bearer scheme; use the DPoP scheme", DPoP realm="plantstore", algs="${ALGS}"`,
    );
  });

  it('asks for a nonce, accepts it on the retry, and shares nonces across instances with one secret', async () => {
    const secret = 'a-nonce-secret-of-at-least-32-bytes-long';
    const first = await start({ nonce: { secret } });
    const second = await start({ nonce: { secret } });
    const stranger = await start({ nonce: true });
    const token = await bound();
    const asked = await send(first.url, await client.headers(token, { url: HTU }));
    expect(asked.status).toBe(401);
    const nonce = asked.headers['dpop-nonce'] as string;
    expect(nonce).toMatch(/^[\w-]{43}$/u);
    expect(asked.headers['www-authenticate']).toBe(
      `Bearer realm="plantstore", DPoP realm="plantstore", error="use_dpop_nonce", error_description="The resource server requires a nonce in the DPoP proof", algs="${ALGS}"`,
    );
    expect((await send(first.url, await client.headers(token, { url: HTU, nonce }))).status).toBe(
      200,
    );
    expect((await send(second.url, await client.headers(token, { url: HTU, nonce }))).status).toBe(
      200,
    );
    const refused = await send(stranger.url, await client.headers(token, { url: HTU, nonce }));
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('error="use_dpop_nonce"');
    expect(refused.headers['dpop-nonce']).not.toBe(nonce);
  });

  it('answers 503 with Retry-After when the replay store fails or does not answer, never letting the proof through', async () => {
    const failing: ReplayStore = {
      remember: () => Promise.reject(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })),
    };
    const hanging: ReplayStore = { remember: () => new Promise(() => undefined) };
    for (const replayStore of [failing, hanging]) {
      const { url } = await start({ replayStore, replayTimeout: 50 });
      const token = await bound();
      const reply = await send(url, await client.headers(token, { url: HTU }));
      expect(reply.status).toBe(503);
      expect(reply.headers['retry-after']).toBe('1');
      expect(reply.body).toStrictEqual({
        error: 503,
        message: 'The service is temporarily unavailable; retry later.',
      });
    }
  });

  it('refuses to start with DPoP but no publicUrl', () => {
    expect(() =>
      createPlantService({
        logger: false,
        store: memoryStore(),
        auth: jwtBearer({
          secret: 'a-secret-that-is-at-least-32-bytes-long',
          dpop: dpopBinding(),
        }),
      }),
    ).toThrow('Plantstore: option "publicUrl" is required when the auth accepts DPoP');
  });
});
