import { checkKnownOptions, optionalBoolean } from '../../options/check-options';
import type { CertificateBinding } from '../proof-of-possession';
import { checkCertificateBinding } from './certificate-binding';

/** Options of certificate-bound tokens (RFC 8705): `jwtBearer({ …, mtls: certificateBinding({ … }) })`. */
export interface MtlsOptions {
  /**
   * Refuse tokens that are not bound to a client certificate (401 `mtls_required`), as FAPI 2.0
   * asks of a resource server whose clients all use mutual TLS. Default false.
   */
  readonly required?: boolean | undefined;
}

const KNOWN = new Set(['required']);

/**
 * Turns on certificate-bound tokens (RFC 8705) for `jwtBearer`: a token with `cnf["x5t#S256"]` is
 * accepted only from a client whose TLS certificate has that thumbprint (the connection's, or the
 * one a trusted proxy sends in the service's `clientCertificateHeader`). Without it a
 * certificate-bound token is refused (401 `token_certificate_bound`), never accepted unchecked.
 *
 * @param options - `{ required: true }` to refuse tokens not bound to a certificate
 * @returns the value of `jwtBearer`'s `mtls` option
 * @throws TypeError naming the option: unknown names, a `required` that is not a boolean
 * @example
 * ```ts
 * const auth = jwtBearer({ jwksUri, issuer, audience, mtls: certificateBinding({ required: true }) });
 * ```
 */
export function certificateBinding(options: MtlsOptions = {}): CertificateBinding {
  checkKnownOptions('certificateBinding', options, KNOWN);
  return Object.freeze({
    binding: 'mtls' as const,
    required: optionalBoolean('certificateBinding', 'required', options.required),
    check: checkCertificateBinding,
  });
}
