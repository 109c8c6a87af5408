import { X509Certificate } from 'node:crypto';
import {
  certificateBinding,
  certificateThumbprint,
  memoryStore,
  type MtlsOptions,
  type PlantServiceOptions,
  type Principal,
} from '@plantstore/core';
import {
  contractTls,
  testCertificates,
  type ClientTls,
  type ContractHost,
  type Reply,
  type TestCertificate,
  type TestCertificates,
} from '@plantstore/http-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer, expectInvalidToken } from '../src/expect-answer';
import { mounts, postPlantWith } from '../src/plant-hosts';
import { API, CLIENT_CERTIFICATE_DN, CLIENTS } from '../src/provider-config';
import { jwtBearerFor, providerOfThisFile } from '../src/provider-of-this-file';
import { tlsFetch } from '../src/tls-fetch';
import { clientCredentials, decodeJwt, postTokenRequest } from '../src/token-endpoint';

// oidc-provider, served over HTTPS with client certificates, authenticates its certificate client
// by the certificate on the TLS connection (tls_client_auth, RFC 8705 §2.1) and binds the client's
// tokens to it (§3: cnf["x5t#S256"]). Those tokens go to the route over HTTPS with that certificate,
// another one or none, and through a proxy's Client-Cert header (RFC 9440).

let certificates: TestCertificates;
const provider = providerOfThisFile(async () => {
  certificates = await testCertificates();
  return { tls: await contractTls() };
});

/** What a client trusts (the test CA) and presents on the connection: `certificate`, or none. */
function clientTls(certificate?: TestCertificate): ClientTls {
  return {
    ca: certificates.ca.certPem,
    ...(certificate !== undefined && { cert: certificate.certPem, key: certificate.keyPem }),
  };
}

/** A fetch over HTTPS that trusts the test CA and presents `certificate`, or none. */
function fetchWith(certificate?: TestCertificate): typeof fetch {
  return tlsFetch(clientTls(certificate));
}

/** RFC 9440: the DER certificate as a byte sequence, `:base64:`, as a TLS-terminating proxy sends it. */
function clientCertHeader(certificate: TestCertificate): { 'client-cert': string } {
  return { 'client-cert': `:${Buffer.from(certificate.der).toString('base64')}:` };
}

/** The certificate client's token for `plants:write`, asked for over a connection with its certificate. */
function boundTokenResponse() {
  return clientCredentials(
    provider.issuer,
    CLIENTS.certificate,
    { scope: 'plants:write' },
    { fetch: fetchWith(certificates.client) },
  );
}

describe('oidc-provider 9 binds the tokens of its certificate client to the TLS client certificate', () => {
  it('token_type Bearer, cnf["x5t#S256"] the thumbprint of the client certificate, the rest an RFC 9068 token', async () => {
    const response = await boundTokenResponse();
    expect(response).toMatchObject({ token_type: 'Bearer', scope: 'plants:write', requests: 1 });
    const { header, payload } = decodeJwt(response.access_token);
    expect(header).toStrictEqual({ alg: 'RS256', typ: 'at+jwt', kid: 'rsa-1' });
    expect(payload['cnf']).toStrictEqual({
      'x5t#S256': certificateThumbprint(certificates.client.der),
    });
    expect(Object.keys(payload).sort()).toStrictEqual(
      ['aud', 'client_id', 'cnf', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub'].sort(),
    );
    expect(payload).toMatchObject({
      aud: API,
      iss: provider.issuer,
      sub: CLIENTS.certificate.id,
      client_id: CLIENTS.certificate.id,
    });
  });

  it('publishes tls_client_auth and certificate-bound tokens in its discovery document, over HTTPS', async () => {
    expect(provider.issuer).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/u);
    const discovery = await fetchWith()(`${provider.issuer}/.well-known/openid-configuration`);
    const server = (await discovery.json()) as Record<string, unknown>;
    expect(server['tls_client_certificate_bound_access_tokens']).toBe(true);
    expect(server['token_endpoint_auth_methods_supported']).toContain('tls_client_auth');
    expect(server['token_endpoint']).toBe(`${provider.issuer}/token`);
  });

  it.each<{ case: string; certificate: () => TestCertificate | undefined }>([
    { case: 'another certificate of the same CA', certificate: () => certificates.other },
    { case: 'no certificate', certificate: () => undefined },
  ])(
    'refuses the certificate client over a connection with $case: 401 invalid_client',
    async ({ certificate }) => {
      // Registered by subject (tls_client_auth_subject_dn): a certificate the CA signed for
      // another subject does not authenticate the client.
      expect(new X509Certificate(certificates.client.der).subject).toBe(CLIENT_CERTIFICATE_DN);
      const form = { grant_type: 'client_credentials', scope: 'plants:write', resource: API };
      const reply = await postTokenRequest(
        provider.issuer,
        CLIENTS.certificate,
        form,
        {},
        undefined,
        fetchWith(certificate()),
      );
      expect(reply.status).toBe(401);
      expect(reply.body).toStrictEqual({
        error: 'invalid_client',
        error_description: 'client authentication failed',
      });
    },
  );
});

describe.each(mounts)(
  'oidc-provider certificate-bound tokens at the route, through $name',
  (mount) => {
    let https: ContractHost;
    let behindProxy: ContractHost;
    const rejected: string[] = [];
    const created: Principal[] = [];
    let nextId = 1;
    const plant = () => ({ id: nextId++, name: 'Fern' });

    function service(mtls: boolean | MtlsOptions, more: Partial<PlantServiceOptions> = {}) {
      return {
        store: memoryStore(),
        // The route fetches the provider's keys over HTTPS, trusting the test CA, with no certificate.
        auth: jwtBearerFor(provider, {
          requiredScopes: ['plants:write'],
          mtls: mtls !== false && certificateBinding(mtls === true ? {} : mtls),
          fetch: fetchWith(),
        }),
        onRejected: (error) => void rejected.push(error.code),
        onCreated: (_plant, context) => void (context.principal && created.push(context.principal)),
        ...more,
      } satisfies PlantServiceOptions;
    }

    beforeAll(async () => {
      https = await mount.start(
        {
          '/mtls': service(true),
          '/required': service({ required: true }),
          '/plain': service(false),
        },
        await contractTls(),
      );
      // Plain HTTP, as behind a TLS-terminating proxy that forwards the certificate (RFC 9440).
      behindProxy = await mount.start({
        '/proxy': service(true, { clientCertificateHeader: 'client-cert' }),
      });
    });
    afterAll(() => Promise.all([https.close(), behindProxy.close()]));

    /** `POST {prefix}/plants` with the token as Bearer, over a connection with `certificate` or none. */
    function post(
      prefix: string,
      token: string,
      certificate?: TestCertificate,
      headers: Readonly<Record<string, string>> = {},
    ) {
      const credentials = { authorization: `Bearer ${token}`, ...headers };
      return postPlantWith(https, prefix, credentials, plant(), clientTls(certificate));
    }

    const boundToken = async () => (await boundTokenResponse()).access_token;

    /** Asserts a 401 `invalid_token` with this description, and the reason code the hook saw. */
    function expectRefused(reply: Reply, description: string, code: string): void {
      expectInvalidToken(reply, description);
      expect(rejected.at(-1)).toBe(code);
    }

    const noCertificate =
      'The token is bound to a client certificate, and the request came without one';
    const otherCertificate =
      'The token is bound to another client certificate than the one the request came with';

    it('creates a plant with the bound token over a connection with the client certificate', async () => {
      const token = await boundToken();
      const reply = await post('/mtls', token, certificates.client);
      expectAnswer(reply, 200, { name: 'Fern' });
      expect(reply.headers['www-authenticate']).toBeUndefined();
      expect(created.at(-1)).toMatchObject({
        subject: CLIENTS.certificate.id,
        claims: { cnf: { 'x5t#S256': certificateThumbprint(certificates.client.der) } },
      });
    });

    it('refuses it over a connection with another certificate of the same CA: 401 certificate_mismatch', async () => {
      expectRefused(
        await post('/mtls', await boundToken(), certificates.other),
        otherCertificate,
        'certificate_mismatch',
      );
    });

    it('refuses it over a connection without a certificate: 401 certificate_mismatch', async () => {
      expectRefused(await post('/mtls', await boundToken()), noCertificate, 'certificate_mismatch');
    });

    it('refuses it with the right certificate in a Client-Cert header the route does not trust', async () => {
      const header = clientCertHeader(certificates.client);
      expectRefused(
        await post('/mtls', await boundToken(), undefined, header),
        noCertificate,
        'certificate_mismatch',
      );
    });

    it('behind a trusted proxy, takes the Client-Cert header of the client certificate, refuses another', async () => {
      const token = await boundToken();
      const through = (certificate: TestCertificate) =>
        postPlantWith(
          behindProxy,
          '/proxy',
          { authorization: `Bearer ${token}`, ...clientCertHeader(certificate) },
          plant(),
        );
      expectAnswer(await through(certificates.client), 200, { name: 'Fern' });
      expectRefused(await through(certificates.other), otherCertificate, 'certificate_mismatch');
    });

    it('with mtls off, refuses the bound token even with the right certificate: 401 token_certificate_bound', async () => {
      expectRefused(
        await post('/plain', await boundToken(), certificates.client),
        'The token is bound to a client certificate, which this resource does not check',
        'token_certificate_bound',
      );
    });

    it("with required: true, refuses the provider's unbound tokens and takes its bound ones", async () => {
      // A client_secret_basic client, over a connection without a certificate: a Bearer token, no cnf.
      const { access_token: unbound } = await clientCredentials(
        provider.issuer,
        CLIENTS.rs256,
        { scope: 'plants:write' },
        { fetch: fetchWith() },
      );
      expect(decodeJwt(unbound).payload).not.toHaveProperty('cnf');
      expectRefused(
        await post('/required', unbound, certificates.client),
        'This resource accepts only tokens bound to a client certificate',
        'mtls_required',
      );
      expectAnswer(await post('/required', await boundToken(), certificates.client), 200, {
        name: 'Fern',
      });
    });
  },
);
