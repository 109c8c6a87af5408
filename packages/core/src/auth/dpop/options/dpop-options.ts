import {
  checkKnownOptions,
  describeValue,
  MAX_TIMER_MS,
  optionalBoolean,
  optionError,
  wholeNumber,
} from '../../../options/check-options';
import { tokenAge } from '../../../options/token-age';
import { importSecret, type JwsAlgorithm } from '../../keys/verification-key';
import { memoryReplayStore } from '../memory-replay-store';
import { createNonceSource, type NonceSource } from '../proof-nonce';
import type { ReplayStore } from '../replay-store';

/** Server nonces in DPoP proofs (RFC 9449 §9). */
export interface DpopNonceOptions {
  /**
   * The key nonces are derived from, at least 32 bytes. Give every instance behind a load balancer
   * the same one, so a nonce handed out by one is accepted by all. Default: random, for one instance.
   */
  readonly secret?: string | Uint8Array | undefined;
  /** How long a nonce is handed out, in seconds or as a duration; it is accepted for one to two of these. Default 300. */
  readonly lifetime?: number | string | undefined;
}

/** Options of DPoP (RFC 9449): `jwtBearer({ …, dpop: dpopBinding({ … }) })`. */
export interface DpopOptions {
  /** Refuse plain Bearer tokens: every request must carry a DPoP-bound token and a proof. Default false. */
  readonly required?: boolean | undefined;
  /**
   * Algorithms a proof may be signed with: asymmetric only. Default ES256, ES384, ES512, EdDSA,
   * Ed25519, PS256…PS512 and RS256…RS512, as advertised in the challenge's `algs`.
   */
  readonly algorithms?: readonly JwsAlgorithm[] | undefined;
  /** Oldest accepted proof `iat`, in seconds or as a duration such as `'2 min'`. Default 60. */
  readonly maxProofAge?: number | string | undefined;
  /** Require a server nonce in every proof (`true`, or `{ secret, lifetime }`). Default off. */
  readonly nonce?: boolean | DpopNonceOptions | undefined;
  /**
   * Where proof ids are remembered until their proofs expire, so none is accepted twice. Default
   * `memoryReplayStore()`, right for one instance; share one (`postgresReplayStore`) across several.
   */
  readonly replayStore?: ReplayStore | undefined;
  /** Milliseconds the replay store may take before the client is answered 503. Default 2000. */
  readonly replayTimeout?: number | undefined;
}

/** Checked DPoP options. */
export interface DpopConfig {
  readonly required: boolean;
  readonly algorithms: readonly JwsAlgorithm[];
  /** Seconds. */
  readonly maxProofAge: number;
  /** Seconds of clock skew allowed on a proof's `iat`: jwtBearer's `clockTolerance`. */
  readonly clockTolerance: number;
  readonly nonces: NonceSource | undefined;
  readonly replayStore: ReplayStore;
  readonly replayTimeout: number;
}

/** The default proof algorithms, in the order the challenge offers them. */
export const DPOP_ALGORITHMS: readonly JwsAlgorithm[] = [
  ...['ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'],
  ...['PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'],
] as JwsAlgorithm[];

const KNOWN = new Set([
  ...['required', 'algorithms', 'maxProofAge', 'nonce', 'replayStore', 'replayTimeout'],
]);
const KNOWN_NONCE = new Set(['secret', 'lifetime']);

function proofAlgorithms(value: unknown): readonly JwsAlgorithm[] {
  if (value === undefined) return DPOP_ALGORITHMS;
  const list: unknown[] = Array.isArray(value) ? value : [];
  const fits = list.every((alg) => DPOP_ALGORITHMS.some((allowed) => allowed === alg));
  if (list.length === 0 || !fits) {
    return optionError(
      'dpopBinding',
      'algorithms',
      `must be a non-empty array of asymmetric algorithms: ${DPOP_ALGORITHMS.join(', ')}`,
      describeValue(value),
    );
  }
  return [...new Set(list as JwsAlgorithm[])];
}

function nonceSource(value: unknown): NonceSource | undefined {
  if (value === undefined || value === false) return undefined;
  if (value !== true && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    return optionError(
      'dpopBinding',
      'nonce',
      'must be true, false or { secret, lifetime }',
      describeValue(value),
    );
  }
  const options: DpopNonceOptions = value === true ? {} : value;
  checkKnownOptions('dpopBinding', options, KNOWN_NONCE, 'nonce.');
  const secret =
    options.secret === undefined
      ? crypto.getRandomValues(new Uint8Array(32))
      : importSecret(options.secret, 'nonce.secret', 'dpopBinding').key;
  const lifetime = tokenAge(options.lifetime, 'nonce.lifetime', 'dpopBinding') ?? 300;
  if (lifetime < 1)
    optionError('dpopBinding', 'nonce.lifetime', 'must be at least 1 second', String(lifetime));
  return createNonceSource(secret as Uint8Array, lifetime * 1000);
}

function replayStore(value: unknown): ReplayStore {
  if (value === undefined) return memoryReplayStore();
  const remember: unknown =
    typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)['remember']
      : undefined;
  if (typeof remember !== 'function') {
    return optionError(
      'dpopBinding',
      'replayStore',
      'must be a ReplayStore (an object with a remember function)',
      describeValue(value),
    );
  }
  return value as ReplayStore;
}

/**
 * Checks the options of `dpopBinding` once, at start-up.
 *
 * @param value - the options; `undefined` for every default
 * @returns the checked options, but for `clockTolerance`, which is `jwtBearer`'s
 * @throws TypeError naming the option
 * @example
 * ```ts
 * resolveDpopOptions({ required: true, nonce: { secret } }).required; // true
 * ```
 */
export function resolveDpopOptions(value: unknown): Omit<DpopConfig, 'clockTolerance'> {
  const options: DpopOptions = value === undefined ? {} : (value as DpopOptions);
  checkKnownOptions('dpopBinding', options, KNOWN);
  const maxProofAge = tokenAge(options.maxProofAge, 'maxProofAge', 'dpopBinding') ?? 60;
  if (maxProofAge < 1) {
    optionError('dpopBinding', 'maxProofAge', 'must be at least 1 second', String(maxProofAge));
  }
  return {
    required: optionalBoolean('dpopBinding', 'required', options.required),
    algorithms: proofAlgorithms(options.algorithms),
    maxProofAge,
    nonces: nonceSource(options.nonce),
    replayStore: replayStore(options.replayStore),
    replayTimeout: wholeNumber(
      'dpopBinding',
      'replayTimeout',
      options.replayTimeout,
      { min: 1, max: MAX_TIMER_MS },
      2000,
    ),
  };
}
