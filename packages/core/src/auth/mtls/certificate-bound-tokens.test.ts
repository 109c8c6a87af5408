import { createServer, request as httpsRequest, type Server } from 'node:https';
import { connect as http2Connect, createSecureServer, type Http2SecureServer } from 'node:http2';
import { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jwtBearer } from '../jwt/jwt-bearer';
import { certificateBinding, type MtlsOptions } from './mtls-options';
import { dpopBinding } from '../dpop/dpop-binding';
import { createPlantService } from '../../service/service';
import { createNodeHandler } from '../../service/node-handler';
import { memoryStore } from '../../plant/memory-store';
import type { PlantServiceError } from '../../errors/plant-service-error';
import { createTokenIssuer, type TokenIssuer } from '../../testing/token-issuer';
import { createDpopClient } from '../../testing/dpop-client';
import { certificateThumbprint } from './certificate-thumbprint';
import {
  clientCertHeader,
  issuerOptions,
  selfSignedCertificate,
  type TestCertificate,
} from './certificates.test-support';

const serverCertificate = selfSignedCertificate('127.0.0.1');
const client = selfSignedCertificate('client-a');
const other = selfSignedCertificate('client-b');
const REALM = 'Bearer realm="plantstore"';

interface Reply {
  readonly status: number;
  readonly challenge: string | undefined;
  readonly body: unknown;
}
interface Refusal {
  readonly code: string;
  /** Whose token it was, when the refusal came after verifying it. */
  readonly subject: string | undefined;
}

let issuer: TokenIssuer;
const servers: (Server | Http2SecureServer)[] = [];
let nextId = 1;

beforeAll(async () => {
  issuer = await createTokenIssuer({ algorithm: 'ES256' });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await issuer.close();
});

const PUBLIC = 'https://api.example.com';

const TLS_OPTIONS = {
  key: serverCertificate.key,
  cert: serverCertificate.cert,
  // Self-signed client certificates (RFC 8705 §2.2): the binding, not a CA, says whose they are.
  requestCert: true,
  rejectUnauthorized: false,
};

function routeHandler(mtls: boolean | MtlsOptions, dpop: boolean, refused: Refusal[]) {
  const service = createPlantService({
    store: memoryStore(),
    auth: jwtBearer({
      ...issuerOptions(issuer),
      mtls: mtls !== false && certificateBinding(mtls === true ? {} : mtls),
      dpop: dpop && dpopBinding(),
    }),
    publicUrl: PUBLIC,
    onRejected: (error: PlantServiceError, context) => {
      refused.push({ code: error.code, subject: context.principal?.subject });
    },
  });
  return createNodeHandler(service);
}

async function start(
  mtls: boolean | MtlsOptions,
  dpop = false,
): Promise<{ port: number; refused: Refusal[] }> {
  const refused: Refusal[] = [];
  const server = createServer(TLS_OPTIONS, routeHandler(mtls, dpop, refused));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, refused };
}

function send(
  port: number,
  token: string,
  certificate?: TestCertificate,
  headers: Record<string, string> = {},
  scheme = 'Bearer',
): Promise<Reply> {
  const body = JSON.stringify({ id: nextId++, name: 'Ficus' });
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/plants',
        ca: serverCertificate.cert,
        agent: false,
        ...(certificate === undefined ? {} : { key: certificate.key, cert: certificate.cert }),
        headers: {
          authorization: `${scheme} ${token}`,
          'content-type': 'application/json',
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            challenge: response.headers['www-authenticate'],
            body: JSON.parse(text) as unknown,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function invalidToken(description: string): Omit<Reply, 'status'> {
  return {
    challenge: `${REALM}, error="invalid_token", error_description="${description}"`,
    body: { error: 401, message: `The bearer token is not valid: ${description}` },
  };
}

const UNCHECKED = 'The token is bound to a key by a method this resource does not check';
const MALFORMED = 'A cnf member is not a SHA-256 thumbprint';
const NONE = 'The token is bound to a client certificate, and the request came without one';
const ANOTHER =
  'The token is bound to another client certificate than the one the request came with';

describe('certificate-bound tokens over a TLS connection (RFC 8705)', () => {
  it("accepts a bound token over a connection with the token's certificate", async () => {
    const { port, refused } = await start(true);
    const token = await issuer.sign({}, { certificate: client.der });
    expect(await send(port, token, client)).toStrictEqual({
      status: 200,
      challenge: undefined,
      body: { name: 'Ficus' },
    });
    expect(refused).toStrictEqual([]);
  });

  it('refuses it with another certificate, 401 certificate_mismatch with the principal', async () => {
    const { port, refused } = await start(true);
    const token = await issuer.sign({}, { certificate: client.cert });
    expect(await send(port, token, other)).toStrictEqual({ status: 401, ...invalidToken(ANOTHER) });
    expect(refused).toStrictEqual([{ code: 'certificate_mismatch', subject: 'test-user' }]);
  });

  it('refuses it without a certificate, and ignores a Client-Cert header nobody trusts', async () => {
    const { port, refused } = await start({ required: true });
    const token = await issuer.sign({}, { certificate: client.der });
    expect(await send(port, token)).toStrictEqual({ status: 401, ...invalidToken(NONE) });
    const forged = { 'client-cert': clientCertHeader(client) };
    expect(await send(port, token, undefined, forged)).toStrictEqual({
      status: 401,
      ...invalidToken(NONE),
    });
    expect(refused.map(({ code }) => code)).toStrictEqual([
      'certificate_mismatch',
      'certificate_mismatch',
    ]);
  });

  it('accepts an unbound token unless mtls is required: then 401 mtls_required', async () => {
    const token = await issuer.sign();
    const optional = await start(true);
    expect((await send(optional.port, token, client)).status).toBe(200);
    const required = await start({ required: true });
    expect(await send(required.port, token, client)).toStrictEqual({
      status: 401,
      ...invalidToken('This resource accepts only tokens bound to a client certificate'),
    });
    expect(required.refused).toStrictEqual([{ code: 'mtls_required', subject: 'test-user' }]);
  });

  it('refuses a bound token where mtls is off: 401 token_certificate_bound', async () => {
    const { port, refused } = await start(false);
    const token = await issuer.sign({}, { certificate: client.der });
    expect(await send(port, token, client)).toStrictEqual({
      status: 401,
      ...invalidToken(
        'The token is bound to a client certificate, which this resource does not check',
      ),
    });
    expect(refused.map(({ code }) => code)).toStrictEqual(['token_certificate_bound']);
  });

  it('keeps refusing a token bound to a key as Bearer, with mtls on', async () => {
    const { port } = await start(true);
    const token = await issuer.sign({ cnf: { jkt: 'a'.repeat(43), 'x5t#S256': 'd'.repeat(43) } });
    expect(await send(port, token, client)).toStrictEqual({
      status: 401,
      ...invalidToken('The token is bound to a key; send it with the DPoP scheme and a proof'),
    });
  });

  // RFC 7800 §3: the presenter holds every key `cnf` names, so the certificate alone proves too little
  // when `cnf` also names a key the route does not check; RFC 9449 §6.1: `jkt` is a thumbprint.
  it.each([
    [
      'a jwk',
      { jwk: { kty: 'EC', crv: 'P-256', x: 'x'.repeat(43), y: 'y'.repeat(43) } },
      UNCHECKED,
    ],
    ['a jku and a kid', { jku: 'https://id.example.com/keys', kid: 'k1' }, UNCHECKED],
    ['a jkt that is a number', { jkt: 42 }, MALFORMED],
    ['an empty jkt', { jkt: '' }, MALFORMED],
  ])(
    'refuses a token bound to the certificate and to %s: 401 with the right certificate',
    async (_, beside, description) => {
      const { port, refused } = await start(true);
      const cnf = { 'x5t#S256': certificateThumbprint(client.der), ...beside };
      const token = await issuer.sign({ cnf });
      expect(await send(port, token, client)).toStrictEqual({
        status: 401,
        ...invalidToken(description),
      });
      expect(refused).toHaveLength(1);
    },
  );

  it('refuses a cnf that is not an object of thumbprints, whatever the scheme', async () => {
    const { port } = await start(true);
    for (const cnf of ['x5t', [], {}, { 'x5t#S256': 'short' }]) {
      const reply = await send(port, await issuer.sign({ cnf }), client);
      expect(reply.status).toBe(401);
      expect(reply.challenge).toMatch(
        /error="invalid_token", error_description="The cnf claim|A cnf/u,
      );
    }
  });

  it('needs both the certificate and the proof for a token bound to both', async () => {
    const { port, refused } = await start(true, true);
    const dpopClient = await createDpopClient('ES256');
    const token = await issuer.sign({}, { certificate: client.der, boundTo: dpopClient });
    const proof = async () => ({
      dpop: await dpopClient.proof({ url: `${PUBLIC}/plants`, token }),
    });
    expect((await send(port, token, client, await proof(), 'DPoP')).status).toBe(200);
    expect((await send(port, token, other, await proof(), 'DPoP')).status).toBe(401);
    expect((await send(port, token, client, {}, 'DPoP')).status).toBe(401);
    expect(refused.map(({ code }) => code)).toStrictEqual([
      'certificate_mismatch',
      'dpop_proof_missing',
    ]);
  });

  it('refuses a DPoP token bound to a certificate too where mtls is off, or one bound to no certificate where it is required', async () => {
    const dpopClient = await createDpopClient('ES256');
    const both = await issuer.sign({}, { certificate: client.der, boundTo: dpopClient });
    const keyOnly = await issuer.sign({}, { boundTo: dpopClient });
    const proof = async (token: string) => ({
      dpop: await dpopClient.proof({ url: `${PUBLIC}/plants`, token }),
    });
    const off = await start(false, true);
    expect((await send(off.port, both, client, await proof(both), 'DPoP')).status).toBe(401);
    expect((await send(off.port, keyOnly, client, await proof(keyOnly), 'DPoP')).status).toBe(200);
    const required = await start({ required: true }, true);
    const refused = await send(required.port, keyOnly, client, await proof(keyOnly), 'DPoP');
    expect(refused.status).toBe(401);
    expect([...off.refused, ...required.refused]).toStrictEqual([
      { code: 'token_certificate_bound', subject: 'test-user' },
      { code: 'mtls_required', subject: 'test-user' },
    ]);
  });

  it('reads the certificate once per connection under the http2 compat API', async () => {
    const server = createSecureServer(
      TLS_OPTIONS,
      // The node entry serves the http2 compat API too; its types name only node:http's.
      routeHandler(true, false, []) as unknown as Parameters<typeof createSecureServer>[1],
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const token = await issuer.sign({}, { certificate: client.der });
    const session = http2Connect(`https://127.0.0.1:${port}`, {
      ca: serverCertificate.cert,
      key: client.key,
      cert: client.cert,
    });
    const reads = vi.spyOn(TLSSocket.prototype, 'getPeerCertificate');
    try {
      const post = (): Promise<number> =>
        new Promise((resolve, reject) => {
          const stream = session.request({
            ':method': 'POST',
            ':path': '/plants',
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
          });
          stream.on('response', (headers) => resolve(Number(headers[':status'])));
          stream.on('error', reject);
          stream.end(JSON.stringify({ id: nextId++, name: 'Ficus' }));
          stream.resume();
        });
      expect(await post()).toBe(200);
      expect(await post()).toBe(200);
      expect(reads.mock.calls.filter(([detailed]) => detailed === false)).toHaveLength(1);
    } finally {
      reads.mockRestore();
      session.close();
    }
  });
});
