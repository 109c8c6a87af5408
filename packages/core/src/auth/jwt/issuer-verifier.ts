import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type {
  CryptoKey,
  JWTPayload,
  JWTVerifyGetKey,
  JWTVerifyOptions,
  JWTVerifyResult,
} from 'jose';
import { toAuthError } from './jose-failure';
import { principalOf } from '../principal-of';
import { assertTokenType } from './token-type';
import { assertAccessToken } from '../claims/token-kind';
import { assertClient } from '../claims/client';
import { tenantIssuerOf, type TenantIssuer } from './tenant-issuer';
import { tokenWindow } from '../claims/time-window';
import type { TokenWindow } from '../verified-token-cache';
import type { Principal } from '../principal';
import {
  createRemoteKeySet,
  type RemoteKeySet,
  type RemoteKeySetConfig,
} from '../keys/remote-key-set';
import type { KeySetPool } from '../keys/key-set-pool';
import { staticKeyResolver } from '../keys/static-key';
import type { VerificationKey } from '../keys/verification-key';

/** Checked options of one issuer: where its keys come from, and what its tokens must satisfy. */
export interface IssuerVerifierConfig {
  /**
   * The `iss` that selects this verifier, with `issuers` (a tenant template as written); undefined
   * for a single issuer.
   */
  readonly issuer: string | undefined;
  /** A tenant-templated issuer: each token's own `iss` is checked against it before any key is used. */
  readonly tenant: TenantIssuer | undefined;
  /** Accepted `client_id` (or `azp`) values; undefined when the client is not checked. */
  readonly clients: readonly string[] | undefined;
  /** ID tokens are accepted as bearer tokens (Firebase); refused by default. */
  readonly idTokens: boolean;
  readonly source:
    | { readonly key: VerificationKey['key'] }
    | { readonly url: URL; readonly jwks: RemoteKeySetConfig };
  /** jose's checks: algorithms, clock tolerance, `iss`, `aud`, required claims, maximum age. */
  readonly verifyOptions: JWTVerifyOptions;
  /** Normalised `typ` values accepted; `undefined` in the list accepts a token without `typ`. */
  readonly acceptedTypes: readonly (string | undefined)[];
  /** Which claims grant scopes. */
  readonly scopeClaims: readonly string[];
}

/** A token that passed one issuer's checks: its principal, and when it would pass them again. */
export interface VerifiedToken {
  readonly principal: Principal;
  /** The window in which jose would accept the token again, for the cache of verified tokens. */
  readonly window: TokenWindow;
}

/** Verifies tokens against one issuer's key source and checks. */
export interface IssuerVerifier {
  /** The `iss` that selects this verifier, with `issuers`; undefined for a single issuer. */
  readonly issuer: string | undefined;
  /** Its tenant template, when `issuer` is one. */
  readonly tenant: TenantIssuer | undefined;
  /** The `alg` values it verifies: a token of another is never handed to it. */
  readonly algorithms: readonly string[];
  /**
   * Increments whenever the issuer's remote key set changes (also through another issuer that shares
   * it); always 0 for a static key.
   */
  readonly version: number;
  /**
   * Verifies a well-formed compact JWS: signature, claims, type, subject and scope claims.
   * Rejects with `InvalidTokenError` (401), or the key set's `ServiceUnavailableError` (503).
   */
  verify(token: string): Promise<VerifiedToken>;
  /** Fetches the issuer's JWKS, if it has one; rejects with a 503 error if that fails. */
  ready(): Promise<void>;
}

type Key = VerificationKey['key'] | JWTVerifyGetKey;

// jose takes durations as strings too; ours are resolved to seconds at start-up.
const numberOrUndefined = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : undefined;

// A token without `kid` matches every key of its type; a forged one must not cost a verification per
// key of a large key set. Real key sets hold one or two keys of a type (the current one and the next).
const MAX_KEYS_TRIED = 3;

/**
 * jwtVerify again with each of the first few keys of a JWKS that all match a token without `kid`,
 * which jose reports by throwing them as `JWKSMultipleMatchingKeys`.
 */
async function verifyWithEachKey(
  matching: errors.JWKSMultipleMatchingKeys,
  token: string,
  options: JWTVerifyOptions,
): Promise<JWTVerifyResult> {
  let tried = 0;
  for await (const candidate of matching as AsyncIterable<CryptoKey>) {
    if (++tried > MAX_KEYS_TRIED) break;
    try {
      return await jwtVerify(token, candidate, options);
    } catch (inner) {
      if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner;
    }
  }
  throw new errors.JWSSignatureVerificationFailed(undefined, { cause: matching });
}

/**
 * Creates the verifier of one issuer: its key source (a static key, or a remote JWKS with its cache,
 * back-off and outage answer, shared with the issuers on the same URL), jose's options and the token type and scope claims it accepts.
 * `jwtBearer` holds one per issuer and hands each token to the verifier its `iss` names.
 *
 * @param config - the issuer's checked options, see {@link IssuerVerifierConfig}
 * @param now - the clock in epoch milliseconds (tests); jose reads the system clock without it
 * @param keySetOf - where the remote key set comes from: `jwtBearer` passes a pool, so issuers on one
 *   JWKS URL share one key set; a key set of its own by default
 * @returns the verifier
 * @example
 * ```ts
 * const verifier = createIssuerVerifier(config.verifiers[0], config.now);
 * const { principal } = await verifier.verify(token);
 * ```
 */
export function createIssuerVerifier(
  config: IssuerVerifierConfig,
  now?: () => number,
  keySetOf: KeySetPool = createRemoteKeySet,
): IssuerVerifier {
  const { source, verifyOptions, acceptedTypes, scopeClaims, tenant, clients, idTokens } = config;
  let keySet: RemoteKeySet | undefined;
  let key: Key;
  if ('url' in source) {
    keySet = keySetOf(source.url, source.jwks);
    key = keySet.getKey;
  } else {
    const resolve = staticKeyResolver(source.key);
    key = resolve;
    // With one algorithm the resolver always answers the same key: once imported, hand jose the key
    // itself, which spares it an await on every verification (about 3 µs against 51 µs in all).
    const [only, ...others] = verifyOptions.algorithms ?? [];
    if (only !== undefined && others.length === 0) {
      void Promise.resolve(resolve({ alg: only }, undefined as never)).then(
        (imported) => {
          key = imported as VerificationKey['key'];
        },
        // An import that fails keeps the resolver, whose own failure then refuses each token.
        () => undefined,
      );
    }
  }

  const accept = ({ payload, protectedHeader }: JWTVerifyResult): VerifiedToken => {
    assertTokenType(protectedHeader.typ, acceptedTypes);
    assertAccessToken(payload, idTokens);
    if (clients !== undefined) assertClient(payload, clients);
    return {
      principal: principalOf(payload, scopeClaims),
      window: tokenWindow(payload, {
        clockTolerance: numberOrUndefined(verifyOptions.clockTolerance),
        maxTokenAge: numberOrUndefined(verifyOptions.maxTokenAge),
      }),
    };
  };

  const refuse = (error: unknown, token: string): never => {
    // jose checks claims only once the signature verified, so the header is the signer's: a token of
    // another type (an ID token under the RFC 9068 profile) is refused as what it is, not for the
    // claims its type lacks.
    // Likewise an ID token that lacks what an access token must carry (Cognito's lacks client_id).
    const failed = error as { code?: unknown; payload?: JWTPayload } | null;
    if (failed?.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
      assertTokenType(decodeProtectedHeader(token).typ, acceptedTypes);
      if (failed.payload !== undefined) assertAccessToken(failed.payload, idTokens);
    }
    throw toAuthError(error);
  };

  return {
    issuer: config.issuer,
    tenant,
    algorithms: verifyOptions.algorithms ?? [],
    get version() {
      return keySet?.version ?? 0;
    },
    verify(token: string): Promise<VerifiedToken> {
      let checks =
        now === undefined ? verifyOptions : { ...verifyOptions, currentDate: new Date(now()) };
      if (tenant !== undefined) {
        try {
          checks = { ...checks, issuer: tenantIssuerOf(tenant, token) };
        } catch (error) {
          return Promise.reject(toAuthError(error));
        }
      }
      // `then`, not an async function: one promise less on every verification.
      return jwtVerify(token, key, checks).then(accept, (error: unknown) =>
        error instanceof errors.JWKSMultipleMatchingKeys
          ? verifyWithEachKey(error, token, checks).then(accept, (inner) => refuse(inner, token))
          : refuse(error, token),
      );
    },
    ready: async () => keySet?.ready(),
  };
}
