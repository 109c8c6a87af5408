import {
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { AuthRequest } from '../authenticator';
import type { DpopProofCheck } from '../proof-of-possession';
import { refusedWith } from '../refused-principal';
import { compactJwsDefect } from '../compact-jws';
import { InvalidDpopProofError, UseDpopNonceError } from '../../errors/bearer-errors';
import type { InvalidDpopProofCode } from '../../errors/error-codes';
import { deadlineList } from '../../common/deadline-list';
import { sha256Base64url } from '../../common/sha256';
import type { DpopConfig } from './options/dpop-options';
import { jwkThumbprint } from './jwk-thumbprint';
import { rememberWithin } from './replay-call';
import { normaliseRequestUrl } from './request-url';

// Members that make a JWK private or secret (RFC 7518 §6): a proof carries the public key only.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'priv'];
const PROOF_CLAIMS = ['jti', 'htm', 'htu', 'iat'];
// A client signs every proof with one key under one header: reading and importing it once per
// distinct header saves a JSON parse, a thumbprint and a key lookup on each of its requests.
const MAX_HEADERS_KEPT = 1000;
const MAX_JTI_LENGTH = 256;

function refuse(code: InvalidDpopProofCode, description: string, cause?: unknown): never {
  throw new InvalidDpopProofError(code, description, cause === undefined ? undefined : { cause });
}

/** The one proof of the request: exactly one `DPoP` field holding one compact JWS. */
function readProof(values: readonly string[] | undefined): string {
  if (values === undefined || values.length === 0) {
    return refuse('dpop_proof_missing', 'The request has no DPoP proof header');
  }
  // A compact JWS holds no comma: one means a Web `Headers` object joined a repeated field.
  if (values.length > 1 || values[0]?.includes(',') === true) {
    return refuse('dpop_proof_repeated', 'The request must carry exactly one DPoP header');
  }
  const proof = (values[0] ?? '').trim();
  if (compactJwsDefect(proof) !== undefined) {
    return refuse('dpop_proof_malformed', 'The DPoP proof is not a compact JWS');
  }
  return proof;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks every part of the proof's header that costs no signature verification.
 */
function readProofHeader(
  proof: string,
  config: DpopConfig,
): { alg: string; jwk: Record<string, unknown>; thumbprint: Promise<string> } {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch (error) {
    return refuse('dpop_proof_malformed', 'The DPoP proof header is not a JSON object', error);
  }
  const { typ, alg, jwk } = header;
  const type = typeof typ === 'string' ? typ.toLowerCase() : '';
  if (type !== 'dpop+jwt' && type !== 'application/dpop+jwt') {
    refuse('dpop_proof_type_mismatch', 'The DPoP proof typ must be dpop+jwt');
  }
  if (typeof alg !== 'string' || !config.algorithms.some((allowed) => allowed === alg)) {
    refuse(
      'dpop_proof_algorithm_not_allowed',
      'The DPoP proof is signed with an algorithm not allowed',
    );
  }
  if (!isObject(jwk) || PRIVATE_MEMBERS.some((member) => member in jwk)) {
    refuse('dpop_proof_key_invalid', 'The DPoP proof must carry a public jwk');
  }
  const thumbprint = jwkThumbprint(jwk);
  if (thumbprint === undefined) {
    refuse('dpop_proof_key_invalid', 'The DPoP proof jwk is not a public EC, OKP or RSA key');
  }
  return { alg, jwk, thumbprint };
}

/** A proof header that passed every check, and its key as jose verifies with it. */
interface ProofHeader {
  readonly alg: string;
  readonly thumbprint: string;
  readonly key: CryptoKey;
}

/** The proof's key as a WebCrypto key, for jose. */
async function importProofKey(jwk: Record<string, unknown>, alg: string): Promise<CryptoKey> {
  let key: CryptoKey | Uint8Array;
  try {
    key = await importJWK({ ...(jwk as JWK), ext: false }, alg);
  } catch (error) {
    return refuse('dpop_proof_key_invalid', 'The DPoP proof jwk is not a usable public key', error);
  }
  if (key instanceof Uint8Array || key.type !== 'public') {
    return refuse('dpop_proof_key_invalid', 'The DPoP proof must carry a public jwk');
  }
  return key;
}

function refuseOtherKey(): never {
  return refuse(
    'dpop_proof_key_mismatch',
    'The DPoP proof key is not the key the token is bound to',
  );
}

/**
 * The checked header of a proof, kept by its encoded header segment: the same bytes decode to the
 * same header, so one that passed once passes again. A header is kept only once its key is the one
 * the token is bound to, so a flood of made-up keys costs no imports and evicts nothing useful.
 */
async function checkedHeader(
  kept: Map<string, ProofHeader>,
  proof: string,
  config: DpopConfig,
  boundKey: string,
): Promise<ProofHeader> {
  const segment = proof.slice(0, proof.indexOf('.'));
  const known = kept.get(segment);
  if (known !== undefined) {
    if (known.thumbprint !== boundKey) refuseOtherKey();
    return known;
  }
  const { alg, jwk, thumbprint: hashing } = readProofHeader(proof, config);
  const thumbprint = await hashing;
  if (thumbprint !== boundKey) refuseOtherKey();
  const header: ProofHeader = { alg, thumbprint, key: await importProofKey(jwk, alg) };
  if (kept.size >= MAX_HEADERS_KEPT) kept.clear();
  kept.set(segment, header);
  return header;
}

function proofFailure(error: unknown): never {
  const { code, claim, reason } = (error ?? {}) as {
    code?: unknown;
    claim?: unknown;
    reason?: unknown;
  };
  switch (code) {
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return refuse(
        'dpop_proof_signature_invalid',
        'The DPoP proof signature does not verify',
        error,
      );
    case 'ERR_JWT_EXPIRED':
      return refuse('dpop_proof_expired', 'The DPoP proof was issued too long ago', error);
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      // `check_failed` is a time check; an `iat` that is not a number is `invalid`.
      if ((claim === 'iat' || claim === 'nbf') && reason === 'check_failed') {
        return refuse('dpop_proof_not_yet_valid', 'The DPoP proof is issued in the future', error);
      }
      return refuse('dpop_proof_claim_invalid', 'The DPoP proof lacks jti, htm, htu or iat', error);
    case 'ERR_JOSE_NOT_SUPPORTED':
      // An extension named in `crit` (RFC 7515 §4.1.11) that nothing here understands.
      return refuse(
        'dpop_proof_malformed',
        'The DPoP proof header names a critical extension this resource does not support',
        error,
      );
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return refuse(
        'dpop_proof_malformed',
        'The DPoP proof is not a well-formed signed JWT',
        error,
      );
    default:
      // jose refuses a key that does not fit the algorithm (curve, RSA under 2048 bits) with a TypeError.
      return refuse(
        'dpop_proof_key_invalid',
        'The DPoP proof key does not fit its algorithm',
        error,
      );
  }
}

async function checkClaims(
  payload: JWTPayload,
  request: AuthRequest,
  token: string,
): Promise<void> {
  const { jti, htm, htu, ath } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) {
    refuse(
      'dpop_proof_claim_invalid',
      'The DPoP proof jti must be a string of 1 to 256 characters',
    );
  }
  if (htm !== request.method) {
    refuse('dpop_proof_method_mismatch', 'The DPoP proof htm is not the request method');
  }
  // The same text is the same URL; only a client that writes it otherwise pays for normalising both.
  const { url } = request;
  if (url === undefined || htu !== url) {
    const expected = url === undefined ? undefined : normaliseRequestUrl(url);
    if (
      typeof htu !== 'string' ||
      expected === undefined ||
      normaliseRequestUrl(htu) !== expected
    ) {
      refuse('dpop_proof_url_mismatch', 'The DPoP proof htu is not the request URL');
    }
  }
  if (ath !== (await sha256Base64url(token))) {
    refuse('dpop_proof_token_hash_mismatch', 'The DPoP proof ath is not the hash of this token');
  }
}

/**
 * Creates the DPoP proof check of RFC 9449 §4.3 and §7: one `DPoP` header with one proof JWT; `typ`
 * `dpop+jwt`; an allowed asymmetric `alg`; a public `jwk` whose RFC 7638 thumbprint is the token's
 * `cnf.jkt`; the signature; `jti`, `htm` = the method, `htu` = the request URL (from `publicUrl`,
 * never from `Host`), `iat` within `maxProofAge` and the clock tolerance, `ath` = the token's hash;
 * the server nonce when nonces are on; and the proof never seen before (the replay store).
 *
 * @param config - the checked `dpop` options
 * @returns the `DpopProofCheck` that `dpopBinding()` hands `jwtBearer`, holding the keys of recent
 *   proofs: resolves when the proof holds, rejects with `InvalidDpopProofError` (401),
 *   `UseDpopNonceError` (401 with `DPoP-Nonce`) or `ServiceUnavailableError` (503 when the replay
 *   store cannot answer)
 * @example
 * ```ts
 * const checkProof = createDpopProofVerifier(resolveDpopOptions({}, 5)!);
 * await checkProof(request, token, principal.claims.cnf.jkt, Date.now(), principal);
 * ```
 */
export function createDpopProofVerifier(config: DpopConfig): DpopProofCheck {
  const headers = new Map<string, ProofHeader>();
  // Replay-store calls wait for their time-out here: one timer for all of them.
  const deadlines = deadlineList();
  return async (request, token, boundKey, now, principal) => {
    // The token itself was verified: a refusal of its proof names whose it was, for the hooks. A
    // try in an async function costs nothing until it catches.
    try {
      const proof = readProof(request.headers('dpop'));
      const { alg, thumbprint, key } = await checkedHeader(headers, proof, config, boundKey);
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(proof, key, {
          algorithms: [alg],
          clockTolerance: config.clockTolerance,
          maxTokenAge: config.maxProofAge,
          requiredClaims: PROOF_CLAIMS,
          currentDate: new Date(now),
        }));
      } catch (error) {
        return proofFailure(error);
      }
      await checkClaims(payload, request, token);
      if (config.nonces !== undefined && !(await config.nonces.accepts(payload['nonce'], now))) {
        const code = payload['nonce'] === undefined ? 'dpop_nonce_missing' : 'dpop_nonce_invalid';
        throw new UseDpopNonceError(code, await config.nonces.current(now));
      }
      // Filed under the key and the id: a proof's jti is unique only among its key's proofs.
      const id = await sha256Base64url(`${thumbprint}.${payload.jti as string}`);
      // Kept one second past the last instant jose would still accept the proof, and a grace of
      // maxProofAge + clockTolerance beyond: a shared store forgets by the clock of whichever
      // instance prunes, and one running ahead (by less than the grace) must not forget a key an
      // instance behind it could still be shown the proof for.
      const lastAccepted = (payload.iat as number) + config.maxProofAge + config.clockTolerance;
      const expiresAt = (lastAccepted + 1 + config.maxProofAge + config.clockTolerance) * 1000;
      const { replayStore, replayTimeout } = config;
      if (!(await rememberWithin(replayStore, deadlines, replayTimeout, id, expiresAt, now))) {
        refuse('dpop_proof_replayed', 'The DPoP proof was used before');
      }
    } catch (error) {
      throw refusedWith(error, principal);
    }
  };
}
