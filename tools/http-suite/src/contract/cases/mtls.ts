import { expect } from 'vitest';
import type { ContractSuite } from '../suite';
import { answer, view, type View } from './dpop-views';
import { clientCertHeader, useMtlsHosts } from './mtls-hosts';

// RFC 8705 certificate-bound access tokens, to the letter: what each refusal answers and its code.

/** The cases that need the host to serve mutual TLS, by a short name, and their tests' names. */
const TLS_CASES = {
  'client certificate':
    'creates a plant with a token bound to the client certificate of the TLS connection',
  'other certificate':
    'refuses a token bound to another client certificate than the connection’s 401 certificate_mismatch',
  'no certificate':
    'refuses a certificate-bound token over TLS without a client certificate 401 certificate_mismatch',
  'header ignored':
    'ignores a Client-Cert header over TLS when no clientCertificateHeader is set 401 certificate_mismatch',
  required: 'refuses an unbound token where mtls is required 401 mtls_required',
  'keep-alive': 'accepts every request of a keep-alive TLS connection with its client certificate',
} as const;

/** The cases of a trusted proxy's `Client-Cert` header over plain HTTP, and their tests' names. */
const HEADER_CASES = {
  'header certificate':
    'creates a plant with a token bound to the certificate of a trusted Client-Cert header',
  'header other': 'refuses a Client-Cert header of another certificate 401 certificate_mismatch',
} as const;

const CREATED = answer(200, {}, { name: 'Fern' });
const ANOTHER =
  'The token is bound to another client certificate than the one the request came with';
const WITHOUT = 'The token is bound to a client certificate, and the request came without one';
const UNBOUND = 'This resource accepts only tokens bound to a client certificate';
const UNCHECKED = 'The token is bound to a client certificate, which this resource does not check';

/** 401 `invalid_token` on the Bearer challenge, with this description. */
function refused(description: string): View {
  return answer(
    401,
    {
      'www-authenticate': `Bearer realm="plantstore", error="invalid_token", error_description="${description}"`,
    },
    { error: 401, message: `The bearer token is not valid: ${description}` },
  );
}

/**
 * Registers the RFC 8705 cases of the contract: certificate-bound tokens over mutual TLS (a host of
 * the target on HTTPS asking for a client certificate, `mtls: true`; another with `mtls.required`),
 * through a trusted proxy's `Client-Cert` header over plain HTTP, and a bound token where `mtls` is off.
 *
 * @param suite - the target's suite: its target, issuer, auth and main host
 */
export function describeMtlsContract(suite: ContractSuite): void {
  const { test, group } = suite;
  group('certificate-bound tokens (RFC 8705)', ['tls', 'client-cert-header', 'auth'], () => {
    const mtls = useMtlsHosts(suite);
    const { bound, required, header } = mtls;

    test('tls.bound', ['tls'], TLS_CASES['client certificate'], async () => {
      const reply = await bound.post(await mtls.token('client'), await mtls.presenting('client'));
      expect(view(reply)).toStrictEqual(CREATED);
    });

    test('tls.other-certificate', ['tls'], TLS_CASES['other certificate'], async () => {
      const reply = await bound.post(await mtls.token('client'), await mtls.presenting('other'));
      expect(view(reply)).toStrictEqual(refused(ANOTHER));
      expect(bound.rejected.at(-1)?.code).toBe('certificate_mismatch');
    });

    test('tls.no-certificate', ['tls'], TLS_CASES['no certificate'], async () => {
      const reply = await bound.post(await mtls.token('client'), await mtls.presenting('none'));
      expect(view(reply)).toStrictEqual(refused(WITHOUT));
      expect(bound.rejected.at(-1)?.code).toBe('certificate_mismatch');
    });

    test('tls.header-ignored', ['tls'], TLS_CASES['header ignored'], async () => {
      const reply = await bound.post(await mtls.token('client'), {
        ...(await mtls.presenting('none')),
        headers: clientCertHeader(await mtls.der('client')),
      });
      expect(view(reply)).toStrictEqual(refused(WITHOUT));
      expect(bound.rejected.at(-1)?.code).toBe('certificate_mismatch');
    });

    test('tls.required', ['tls'], TLS_CASES.required, async () => {
      const reply = await required.post(
        await mtls.token('unbound'),
        await mtls.presenting('client'),
      );
      expect(view(reply)).toStrictEqual(refused(UNBOUND));
      expect(required.rejected.at(-1)?.code).toBe('mtls_required');
      const boundReply = await required.post(
        await mtls.token('client'),
        await mtls.presenting('client'),
      );
      expect(view(boundReply)).toStrictEqual(CREATED);
    });

    test('tls.keep-alive', ['tls'], TLS_CASES['keep-alive'], async () => {
      const agent = await mtls.keepAlive('client');
      try {
        const token = await mtls.token('client');
        for (let request = 0; request < 2; request += 1) {
          expect(view(await bound.post(token, { agent }))).toStrictEqual(CREATED);
        }
        expect(agent.connections).toBe(1);
      } finally {
        agent.destroy();
      }
    });

    test(
      'tls.header-bound',
      ['client-cert-header'],
      HEADER_CASES['header certificate'],
      async () => {
        const headers = clientCertHeader(await mtls.der('client'));
        expect(view(await header.post(await mtls.token('client'), { headers }))).toStrictEqual(
          CREATED,
        );
      },
    );

    test('tls.header-other', ['client-cert-header'], HEADER_CASES['header other'], async () => {
      const headers = clientCertHeader(await mtls.der('other'));
      const reply = await header.post(await mtls.token('client'), { headers });
      expect(view(reply)).toStrictEqual(refused(ANOTHER));
      expect(header.rejected.at(-1)?.code).toBe('certificate_mismatch');
    });

    test(
      'tls.binding-off',
      ['auth'],
      'refuses a certificate-bound token where mtls is off 401 token_certificate_bound',
      async () => {
        const reply = await suite.post('{"id":7999,"name":"Fern"}', {
          headers: { authorization: `Bearer ${await mtls.token('client')}` },
        });
        expect(view(reply)).toStrictEqual(refused(UNCHECKED));
        expect(suite.rejected.at(-1)?.code).toBe('token_certificate_bound');
      },
    );
  });
}
