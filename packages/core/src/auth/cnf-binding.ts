import type { AuthRequest } from './authenticator';
import type { Principal } from './principal';
import { InvalidTokenError, MalformedAuthorizationError } from '../errors/bearer-errors';
import { refusedWith } from './refused-principal';
import type { CertificateBinding, DpopProofCheck } from './proof-of-possession';

/** How a token's scheme and its binding are checked, around the token's own verification. */
export interface CnfBinding {
  /** Before the token is verified: refuses what the scheme alone settles, at no cost. */
  beforeVerifying(request: AuthRequest): void;
  /**
   * Once the token is verified: a bound token only with DPoP and a proof of its key, an unbound one
   * only as Bearer. Returns a promise only when there is a proof to check. Its refusals carry the
   * principal for the hooks (`refusedWith`).
   */
  afterVerifying(
    principal: Principal,
    request: AuthRequest,
    token: string,
    now: number,
  ): Promise<void> | undefined;
}

/** The confirmation methods a token's `cnf` names, each well-formed; none for an unbound token. */
interface Confirmation {
  readonly jkt: string | undefined;
  readonly x5t: string | undefined;
}

const UNBOUND: Confirmation = Object.freeze({ jkt: undefined, x5t: undefined });
// A base64url SHA-256 digest: RFC 9449 §6.1's `jkt` (RFC 7638) and RFC 8705 §3.1's `x5t#S256`.
const SHA256_BASE64URL = /^[A-Za-z0-9_-]{43}$/u;

function malformed(description: string, principal: Principal): never {
  throw refusedWith(new InvalidTokenError('claim_invalid', description), principal);
}

/**
 * Reads `cnf` (RFC 7800 §3): whoever presents the token must prove each method it names, so a member
 * this resource cannot check (`jwk`, `jku`, `kid`, `jwe`, …) refuses the token whatever else it
 * holds, and so does a `jkt` or `x5t#S256` that is not a thumbprint.
 */
function confirmationOf(cnf: unknown, principal: Principal): Confirmation {
  if (cnf === undefined) return UNBOUND;
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf)) {
    return malformed('The cnf claim is not an object', principal);
  }
  const members = Object.keys(cnf);
  if (members.some((member) => member !== 'jkt' && member !== 'x5t#S256')) {
    const unchecked = new InvalidTokenError(
      'token_dpop_bound',
      'The token is bound to a key by a method this resource does not check',
    );
    throw refusedWith(unchecked, principal);
  }
  if (members.length === 0) return malformed('The cnf claim names no key', principal);
  const { jkt, 'x5t#S256': x5t } = cnf as { jkt?: unknown; 'x5t#S256'?: unknown };
  for (const value of [jkt, x5t]) {
    if (value !== undefined && !(typeof value === 'string' && SHA256_BASE64URL.test(value))) {
      malformed('A cnf member is not a SHA-256 thumbprint', principal);
    }
  }
  return { jkt: jkt as string | undefined, x5t: x5t as string | undefined };
}

/**
 * Creates the scheme and binding rules of RFC 9449 §7 and RFC 8705 §3. A token bound to a key
 * (`cnf.jkt`, or any `cnf` this resource does not know) is never accepted as a plain Bearer token,
 * for that would undo the binding; with DPoP on, the `DPoP` scheme needs a token bound by `cnf.jkt`
 * and a valid proof, and a proof beside a `Bearer` token is a request that contradicts itself. A
 * token bound to a certificate (`cnf["x5t#S256"]`) comes as Bearer, or as DPoP when it is bound by
 * `jkt` too, and is accepted only with mTLS on and the request's client certificate; both bindings
 * need both checks.
 *
 * The proof and certificate checks come from the `dpopBinding()` and `certificateBinding()` values
 * the configuration holds, so this module, which every `jwtBearer` loads, imports neither.
 *
 * @param checkProof - the DPoP proof check, or `undefined` when DPoP is off
 * @param mtls - the certificate binding, or `undefined` when certificates are not checked
 * @param dpopRequired - DPoP is required: a request with any other scheme is refused
 * @returns the two checks
 * @example
 * ```ts
 * const binding = createCnfBinding(config.dpop?.createProofCheck(5), config.mtls);
 * binding.beforeVerifying(request);
 * await binding.afterVerifying(principal, request, token, Date.now());
 * ```
 */
export function createCnfBinding(
  checkProof: DpopProofCheck | undefined,
  mtls: CertificateBinding | undefined = undefined,
  dpopRequired = false,
): CnfBinding {
  const certificateRequired = mtls?.required === true;

  // Bound to a certificate: accepted only where certificates are checked, and with the right one.
  function checkCertificate(x5t: string, request: AuthRequest, principal: Principal): void {
    if (mtls === undefined) {
      const unchecked = new InvalidTokenError(
        'token_certificate_bound',
        'The token is bound to a client certificate, which this resource does not check',
      );
      throw refusedWith(unchecked, principal);
    }
    mtls.check(x5t, request, principal);
  }

  function requireCertificate(principal: Principal): never {
    const unbound = new InvalidTokenError(
      'mtls_required',
      'This resource accepts only tokens bound to a client certificate',
    );
    throw refusedWith(unbound, principal);
  }

  return {
    beforeVerifying(request) {
      if (checkProof === undefined || request.scheme === 'DPoP') return;
      if (dpopRequired) {
        throw new InvalidTokenError(
          'dpop_required',
          'This resource accepts only DPoP-bound tokens',
        );
      }
      if (request.headers('dpop') !== undefined) {
        throw new MalformedAuthorizationError(
          'dpop_proof_with_bearer',
          'A DPoP proof was sent with the Bearer scheme; use the DPoP scheme',
        );
      }
    },
    afterVerifying(principal, request, token, now) {
      const { cnf } = principal.claims;
      // The common path, an unbound Bearer token: one field read more than before mTLS.
      if (cnf === undefined && (request.scheme !== 'DPoP' || checkProof === undefined)) {
        if (certificateRequired) requireCertificate(principal);
        return undefined;
      }
      const { jkt, x5t } = confirmationOf(cnf, principal);
      if (request.scheme !== 'DPoP' || checkProof === undefined) {
        if (x5t === undefined || jkt !== undefined) {
          throw refusedWith(
            new InvalidTokenError(
              'token_dpop_bound',
              'The token is bound to a key; send it with the DPoP scheme and a proof',
            ),
            principal,
          );
        }
        checkCertificate(x5t, request, principal);
        return undefined;
      }
      if (jkt === undefined) {
        const unbound = new InvalidTokenError(
          'token_not_dpop_bound',
          'The token is not bound to a DPoP key',
        );
        throw refusedWith(unbound, principal);
      }
      // The certificate first: it costs no replay-store call, and a refused proof is not spent.
      if (x5t !== undefined) checkCertificate(x5t, request, principal);
      else if (certificateRequired) requireCertificate(principal);
      return checkProof(request, token, jkt, now, principal);
    },
  };
}
