import type { DpopBinding } from '../proof-of-possession';
import { resolveDpopOptions, type DpopOptions } from './options/dpop-options';
import { createDpopProofVerifier } from './verify-dpop-proof';

/**
 * Turns on DPoP (RFC 9449) for `jwtBearer`: tokens bound to a client's key (`cnf.jkt`) are
 * accepted with the `DPoP` scheme, each request with a proof signed by that key, checked in full
 * (`htu` against the service's `publicUrl`, replays refused through the replay store). The proof
 * check is loaded by this import only: a `jwtBearer` without it carries none of it.
 *
 * @param options - `required`, `algorithms`, `maxProofAge`, `nonce`, `replayStore`,
 *   `replayTimeout`; every one has a default (see {@link DpopOptions})
 * @returns the value of `jwtBearer`'s `dpop` option
 * @throws TypeError naming the option: unknown names, a symmetric algorithm, a bad duration, a
 *   nonce secret under 32 bytes, a replay store without `remember`
 * @example
 * ```ts
 * const auth = jwtBearer({
 *   jwksUri, issuer, audience,
 *   dpop: dpopBinding({ required: true, replayStore: postgresReplayStore({ client: pool }) }),
 * });
 * ```
 */
export function dpopBinding(options?: DpopOptions): DpopBinding {
  const config = resolveDpopOptions(options);
  return Object.freeze({
    binding: 'dpop' as const,
    required: config.required,
    algorithms: config.algorithms,
    replayStore: config.replayStore,
    createProofCheck: (clockTolerance: number) =>
      createDpopProofVerifier({ ...config, clockTolerance }),
  });
}
