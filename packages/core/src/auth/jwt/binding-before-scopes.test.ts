import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtBearer } from './jwt-bearer';
import { dpopBinding } from '../dpop/dpop-binding';
import { certificateBinding } from '../mtls/mtls-options';
import type { AuthRequest } from '../authenticator';
import { createTokenIssuer, type TokenIssuer } from '../../testing/token-issuer';
import { createDpopClient, type DpopClient } from '../../testing/dpop-client';
import { selfSignedCertificate } from '../mtls/certificates.test-support';
import { certificateThumbprint } from '../mtls/certificate-thumbprint';

// A bound token presented without its key or certificate is not a valid token (RFC 9449 §7.1,
// RFC 8705 §3): it answers 401 whatever it grants. Checking its scopes first would answer 403 and
// tell whoever stole it what it grants.

const URL = 'https://api.example.com/plants';
const certificate = selfSignedCertificate('client-a');

let issuer: TokenIssuer;
let client: DpopClient;

beforeAll(async () => {
  [issuer, client] = await Promise.all([
    createTokenIssuer({ algorithm: 'ES256' }),
    createDpopClient('ES256'),
  ]);
});
afterAll(() => issuer.close());

function request(headers: Record<string, string>, extra: Partial<AuthRequest> = {}): AuthRequest {
  return {
    method: 'POST',
    path: '/plants',
    url: URL,
    headers: (name) => (headers[name] === undefined ? undefined : [headers[name]]),
    ...extra,
  };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  const error = (await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )) as { status: number; code: string } | undefined;
  if (error === undefined) throw new Error('the token was accepted');
  return { status: error.status, code: error.code };
}

describe('jwtBearer checks a token binding before its scopes', () => {
  const base = () => ({
    jwksUri: issuer.jwksUri,
    issuer: issuer.issuer,
    audience: issuer.audience,
    requiredScopes: ['plants:write'],
  });

  it('answers a DPoP-bound token that lacks the scope 401, not 403, without a valid proof', async () => {
    const auth = jwtBearer({ ...base(), dpop: dpopBinding() });
    const token = await issuer.sign({ scope: 'plants:read' }, { boundTo: client });
    const other = await createDpopClient('ES256');
    const foreignProof = await other.proof({ url: URL, token });

    expect(await refusal(auth.verify(token, request({}, { scheme: 'DPoP' })))).toStrictEqual({
      status: 401,
      code: 'dpop_proof_missing',
    });
    expect(
      await refusal(auth.verify(token, request({ dpop: foreignProof }, { scheme: 'DPoP' }))),
    ).toMatchObject({ status: 401 });
    expect(await refusal(auth.verify(token, request({})))).toStrictEqual({
      status: 401,
      code: 'token_dpop_bound',
    });
    // With its proof, the token is valid, and its scopes decide.
    const proof = await client.proof({ url: URL, token });
    expect(
      await refusal(auth.verify(token, request({ dpop: proof }, { scheme: 'DPoP' }))),
    ).toStrictEqual({ status: 403, code: 'scope_insufficient' });
  });

  it('answers a certificate-bound token that lacks the scope 401 without its certificate', async () => {
    const auth = jwtBearer({ ...base(), mtls: certificateBinding() });
    const token = await issuer.sign({ scope: 'plants:read' }, { certificate: certificate.cert });

    expect(await refusal(auth.verify(token, request({})))).toStrictEqual({
      status: 401,
      code: 'certificate_mismatch',
    });
    const clientCertificate = {
      der: certificate.der,
      thumbprint: certificateThumbprint(certificate.der),
    };
    expect(await refusal(auth.verify(token, request({}, { clientCertificate })))).toStrictEqual({
      status: 403,
      code: 'scope_insufficient',
    });
  });
});
