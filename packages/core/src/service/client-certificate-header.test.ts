import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { PlantRequest } from '../http/request';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { certificateBinding } from '../auth/mtls/mtls-options';
import { memoryStore } from '../plant/memory-store';
import { createPlantService, type PlantService } from './service';
import type { PlantServiceOptions } from './service-options';
import type { Authenticator } from '../auth/authenticator';
import { certificateThumbprint } from '../auth/mtls/certificate-thumbprint';
import { createTokenIssuer, type TokenIssuer } from '../testing/token-issuer';
import {
  clientCertHeader,
  issuerOptions,
  selfSignedCertificate,
} from '../auth/mtls/certificates.test-support';

const client = selfSignedCertificate('client-a');
const other = selfSignedCertificate('client-b');
const secret = 'a-secret-that-is-at-least-32-bytes-long';

let issuer: TokenIssuer;
let nextId = 1;
beforeAll(async () => {
  issuer = await createTokenIssuer();
});
afterAll(() => issuer.close());

function service(extra: Partial<PlantServiceOptions> = {}, codes: string[] = []) {
  return createPlantService({
    store: memoryStore(),
    auth: jwtBearer({ ...issuerOptions(issuer), mtls: certificateBinding() }),
    clientCertificateHeader: 'Client-Cert',
    onRejected: (error) => void codes.push(error.code),
    ...extra,
  });
}

async function post(route: PlantService, token: string, headers: [string, string][] = []) {
  const response = await route.fetch(
    new Request('https://api.example.com/plants', {
      method: 'POST',
      headers: [
        ['authorization', `Bearer ${token}`],
        ['content-type', 'application/json'],
        ...headers,
      ],
      body: JSON.stringify({ id: nextId++, name: 'Ficus' }),
    }),
  );
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: await response.json(),
  };
}

const mismatch = (description: string) => ({
  status: 401,
  challenge: `Bearer realm="plantstore", error="invalid_token", error_description="${description}"`,
  body: { error: 401, message: `The bearer token is not valid: ${description}` },
});

describe("clientCertificateHeader: a trusted proxy's Client-Cert (RFC 9440)", () => {
  it('binds tokens to the certificate in the header on the fetch entry', async () => {
    const codes: string[] = [];
    const route = service({}, codes);
    const token = await issuer.sign({}, { certificate: client.cert });
    const ok = { status: 200, challenge: null, body: { name: 'Ficus' } };
    expect(await post(route, token, [['client-cert', clientCertHeader(client)]])).toStrictEqual(ok);
    const nginx = encodeURIComponent(client.cert);
    expect(await post(route, token, [['client-cert', nginx]])).toStrictEqual(ok);
    expect(await post(route, token, [['client-cert', clientCertHeader(other)]])).toStrictEqual(
      mismatch(
        'The token is bound to another client certificate than the one the request came with',
      ),
    );
    const none = mismatch(
      'The token is bound to a client certificate, and the request came without one',
    );
    expect(await post(route, token)).toStrictEqual(none);
    const twice: [string, string][] = [
      ['client-cert', clientCertHeader(client)],
      ['client-cert', clientCertHeader(client)],
    ];
    expect(await post(route, token, twice)).toStrictEqual(none);
    expect(codes).toStrictEqual([
      'certificate_mismatch',
      'certificate_mismatch',
      'certificate_mismatch',
    ]);
  });

  it('hands a custom verifier the certificate, only when the header is trusted', async () => {
    const seen: (string | undefined)[] = [];
    const auth: Authenticator = {
      verify: (_token, request) => {
        seen.push(request.clientCertificate?.thumbprint);
        return Promise.resolve({ subject: 'svc', scopes: [], claims: {} });
      },
    };
    const header: [string, string][] = [['client-cert', clientCertHeader(client)]];
    await post(service({ auth }), 'opaque', header);
    await post(service({ auth, clientCertificateHeader: undefined }), 'opaque', header);
    expect(seen).toStrictEqual([certificateThumbprint(client.der), undefined]);
  });

  it('is typed as a header name, and the request carries its connection as unknown', () => {
    expectTypeOf<PlantServiceOptions['clientCertificateHeader']>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<PlantRequest['socket']>().toEqualTypeOf<unknown>();
  });

  it('refuses a name that is not a header token at start-up', () => {
    const auth = jwtBearer({ secret });
    const start = (value: unknown) => () =>
      createPlantService({
        store: memoryStore(),
        auth,
        clientCertificateHeader: value as string,
      });
    expect(start('client cert')).toThrow(
      new TypeError(
        `Plantstore: option "clientCertificateHeader" must be a header name such as 'client-cert'; received a string of 11 characters`,
      ),
    );
    expect(start('')).toThrow(/received a string of 0 characters$/u);
    expect(start(42)).toThrow(
      new TypeError(
        `Plantstore: option "clientCertificateHeader" must be a header name such as 'client-cert'; received 42`,
      ),
    );
  });
});

describe('the mtls option of jwtBearer', () => {
  it('refuses a wrong shape at start-up, naming the option', () => {
    const make = (options: unknown) => () => certificateBinding(options as { required: boolean });
    expect(make('yes')).toThrow(
      new TypeError(
        'certificateBinding: option "options" must be an object; received a string of 3 characters',
      ),
    );
    expect(make({ required: 'yes' })).toThrow(
      new TypeError(
        'certificateBinding: option "required" must be a boolean; received a string of 3 characters',
      ),
    );
    expect(make({ requird: true })).toThrow(
      new TypeError('certificateBinding: unknown option "requird" (did you mean "required"?)'),
    );
  });

  it('says what it accepts, and the RFC 9728 metadata follows', () => {
    expect(jwtBearer({ secret }).accepts.mtls).toBeUndefined();
    expect(jwtBearer({ secret, mtls: certificateBinding() }).accepts.mtls).toStrictEqual({
      required: false,
    });
    const auth = jwtBearer({
      secret,
      audience: 'https://api.example.com/plants',
      mtls: certificateBinding({ required: true }),
    });
    expect(auth.accepts.mtls).toStrictEqual({ required: true });
    const withMtls = createPlantService({ store: memoryStore(), auth, resourceMetadata: true });
    expect(withMtls.resourceMetadata?.document).toStrictEqual({
      resource: 'https://api.example.com/plants',
      bearer_methods_supported: ['header'],
      tls_client_certificate_bound_access_tokens: true,
    });
    const without = createPlantService({
      store: memoryStore(),
      auth: jwtBearer({ secret, audience: 'https://api.example.com/plants' }),
      resourceMetadata: true,
    });
    expect(without.resourceMetadata?.document).not.toHaveProperty(
      'tls_client_certificate_bound_access_tokens',
    );
  });
});
