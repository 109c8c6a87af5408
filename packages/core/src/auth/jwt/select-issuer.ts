import { decodeJwt } from 'jose';
import { toAuthError } from './jose-failure';
import type { IssuerVerifier } from './issuer-verifier';
import { InvalidTokenError } from '../../errors/bearer-errors';

/**
 * Makes the choice of keys for `jwtBearer({ issuers })`: a token's `iss`, read before anything is
 * verified, names the one verifier that may verify it. A key of one issuer so never verifies a token
 * naming another (RFC 8725 §3.8): not by a kid both key sets hold, not by an HS256 token signed with
 * one issuer's secret and naming an issuer whose key is public. jose's own `issuer` check still runs in
 * the verifier, on the verified payload.
 *
 * @param verifiers - one per issuer, each with its `issuer`
 * @returns the selection: a well-formed compact JWS in, its issuer's verifier out
 * @example
 * ```ts
 * const select = selectByIssuer(verifiers);
 * assertCompactJws(token);
 * const { principal } = await select(token).verify(token);
 * ```
 */
export function selectByIssuer(
  verifiers: readonly IssuerVerifier[],
): (token: string) => IssuerVerifier {
  // A Map, not an object: an `iss` of "__proto__" or "constructor" must find nothing.
  const byIssuer = new Map(verifiers.map((verifier) => [verifier.issuer, verifier]));
  return (token) => {
    let iss: unknown;
    try {
      // jose's own decoding, so the `iss` that selects is the one jwtVerify then reads and checks.
      iss = decodeJwt(token).iss;
    } catch (error) {
      // A payload that is not a JSON object: token_malformed, as jwtVerify would answer.
      throw toAuthError(error);
    }
    const verifier = typeof iss === 'string' ? byIssuer.get(iss) : undefined;
    if (verifier === undefined) {
      // Refused here, before any key is fetched: an unknown issuer must not cost a JWKS fetch.
      throw new InvalidTokenError('issuer_mismatch', 'The token names no accepted issuer');
    }
    return verifier;
  };
}
