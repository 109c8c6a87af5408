import { createHash, X509Certificate } from 'node:crypto';
import {
  testCertificates,
  type TestCertificate,
  type TestCertificates,
} from '@plantstore/http-suite';
import { describe, expect, it } from 'vitest';
import { API, CLIENT_CERTIFICATE_DN, CLIENTS } from '../src/provider-config';
import { providerOfThisFile } from '../src/provider-of-this-file';
import { tlsFetch } from '../src/tls-fetch';
import { clientCredentials, decodeJwt, postTokenRequest } from '../src/token-endpoint';

// oidc-provider, served over HTTPS with client certificates, authenticates its certificate client
// by the certificate on the TLS connection (tls_client_auth, RFC 8705 §2.1) and binds the client's
// tokens to it (§3: cnf["x5t#S256"]). Those tokens go to the route over HTTPS with that certificate,
// another one or none, and through a proxy's Client-Cert header (RFC 9440).

let certificates: TestCertificates;
const provider = providerOfThisFile(async () => {
  certificates = await testCertificates();
  const { server, ca } = certificates;
  return { tls: { cert: server.certPem, key: server.keyPem, ca: ca.certPem } };
});

// RFC 8705 §3.1, until @plantstore/core exports certificateThumbprint: base64url(SHA-256(DER)).
const certificateThumbprint = (der: Uint8Array): string =>
  createHash('sha256').update(der).digest('base64url');

/** A fetch that trusts the test CA and presents `certificate` on the connection, or none. */
function fetchWith(certificate?: TestCertificate): typeof fetch {
  const { ca } = certificates;
  return tlsFetch({
    ca: ca.certPem,
    ...(certificate !== undefined && { cert: certificate.certPem, key: certificate.keyPem }),
  });
}

/** The certificate client's token for `plants:write`, asked for over a connection with `certificate`. */
function boundTokenResponse(certificate: TestCertificate = certificates.client) {
  return clientCredentials(
    provider.issuer,
    CLIENTS.certificate,
    { scope: 'plants:write' },
    { fetch: fetchWith(certificate) },
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
