import { decodeJwt, decodeProtectedHeader } from 'jose';
import { toAuthError } from './jose-failure';
import type { IssuerVerifier, VerifiedToken } from './issuer-verifier';
import { InvalidTokenError } from '../../errors/bearer-errors';
import { isPlantServiceError } from '../../errors/plant-service-error';
import { tenantOf } from './tenant-issuer';

/** Verifies a well-formed compact JWS with the keys its issuer allows. */
export type IssuerSelection = (token: string) => Promise<VerifiedToken>;

// What another key source of the same issuer may still verify: the signature, not the claims.
const TRY_NEXT = new Set(['signature_invalid', 'key_not_found']);

/** Each candidate in turn, while a signature does not verify or no key matches; the last answers. */
function verifyWithEach(
  [first, ...rest]: readonly IssuerVerifier[],
  token: string,
): Promise<VerifiedToken> {
  const attempt = (first as IssuerVerifier).verify(token);
  if (rest.length === 0) return attempt;
  return attempt.catch((error: unknown) =>
    isPlantServiceError(error) && TRY_NEXT.has(error.code)
      ? verifyWithEach(rest, token)
      : Promise.reject(error as Error),
  );
}

/**
 * Makes the choice of keys for `jwtBearer({ issuers })`: a token's `iss`, read before anything is
 * verified, names the entries that may verify it, and no other entry's key ever does (RFC 8725
 * §3.8): not by a kid both key sets hold, not by an HS256 token signed with one issuer's secret and
 * naming an issuer whose key is public. An exact issuer is looked up first, then each tenant
 * template in order. One issuer may have several entries, one per key source (Supabase's legacy
 * secret beside its JWKS; two key sets during a migration): the token goes only to those whose
 * `algorithms` hold its `alg`, in order, on to the next while its signature fails to verify. jose's
 * own `issuer` check still runs in the verifier, on the verified payload.
 *
 * @param verifiers - one per entry, each with its `issuer`
 * @returns the selection: a well-formed compact JWS in, its verified principal out
 * @throws (rejects with) {@link InvalidTokenError} `issuer_mismatch` before any key is fetched for a
 *   token naming no entry, `algorithm_not_allowed` when none of its entries takes its `alg`
 * @example
 * ```ts
 * const verify = selectByIssuer(verifiers);
 * assertCompactJws(token);
 * const { principal } = await verify(token);
 * ```
 */
export function selectByIssuer(verifiers: readonly IssuerVerifier[]): IssuerSelection {
  // A Map, not an object: an `iss` of "__proto__" or "constructor" must find nothing.
  const byIssuer = new Map<string | undefined, IssuerVerifier[]>();
  for (const verifier of verifiers) {
    if (verifier.tenant !== undefined) continue;
    byIssuer.set(verifier.issuer, [...(byIssuer.get(verifier.issuer) ?? []), verifier]);
  }
  const templated = verifiers.filter(({ tenant }) => tenant !== undefined);
  const named = (iss: string): readonly IssuerVerifier[] =>
    byIssuer.get(iss) ??
    templated.filter(({ tenant }) => tenant !== undefined && tenantOf(tenant, iss) !== undefined);

  return (token) => {
    let iss: unknown;
    let alg: unknown;
    try {
      // jose's own decoding, so the `iss` that selects is the one jwtVerify then reads and checks.
      iss = decodeJwt(token).iss;
      alg = decodeProtectedHeader(token).alg;
    } catch (error) {
      // A payload that is not a JSON object: token_malformed, as jwtVerify would answer.
      return Promise.reject(toAuthError(error));
    }
    const candidates = typeof iss === 'string' ? named(iss) : [];
    if (candidates.length === 0) {
      // Refused here, before any key is fetched: an unknown issuer must not cost a JWKS fetch.
      return Promise.reject(
        new InvalidTokenError('issuer_mismatch', 'The token names no accepted issuer'),
      );
    }
    const fitting = candidates.filter(({ algorithms }) => algorithms.includes(alg as string));
    if (fitting.length === 0) {
      return Promise.reject(
        new InvalidTokenError(
          'algorithm_not_allowed',
          'The token is signed with an algorithm not allowed',
        ),
      );
    }
    return verifyWithEach(fitting, token);
  };
}
