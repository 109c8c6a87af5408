/** What a {@link ReplayStore} is handed with each key. */
export interface ReplayContext {
  /** The service's clock, in epoch milliseconds: a key whose `expiresAt` is not after it has expired. */
  readonly now: number;
  /** Fires when the check's time-out passes (the client is then answered 503); stop waiting. */
  readonly signal: AbortSignal;
}

/**
 * Remembers one-time values, such as the `jti` of each DPoP proof, for as long as they could be
 * replayed. One atomic primitive is all a backend needs; `memoryReplayStore()` keeps them in the
 * process and `postgresReplayStore(…)` in a table that every instance of the service shares.
 *
 * @example
 * ```ts
 * // Redis: a Lua script runs atomically across every instance. It judges expiry by the service's
 * // clock (`now`), never Redis's; Redis's own expiry only cleans up, on a relative TTL that runs to
 * // `expiresAt`, grace included: counted from the clock of a caller running ahead, it still ends
 * // after the last moment an instance behind could accept the proof.
 * const REMEMBER = `local held = tonumber(redis.call('GET', KEYS[1]))
 * if held and held > tonumber(ARGV[2]) then return 0 end
 * redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
 * return 1`;
 * const replayStore: ReplayStore = {
 *   async remember(key, expiresAt, { now }) {
 *     const ttl = String(Math.max(1, Math.ceil(expiresAt - now)));
 *     const args = [String(expiresAt), String(now), ttl];
 *     return (await redis.eval(REMEMBER, { keys: [`dpop:${key}`], arguments: args })) === 1;
 *   },
 * };
 * ```
 */
export interface ReplayStore {
  /**
   * Remembers `key` until `expiresAt` unless it is already remembered and has not expired, as one
   * atomic step: of any number of concurrent calls with one key, across every process sharing the
   * store, exactly one resolves `true`.
   *
   * @param key - at most 128 ASCII characters (the service passes 43: a SHA-256 in base64url)
   * @param expiresAt - epoch milliseconds after which the key may be forgotten: the service passes the
   *   proof's last acceptable second plus a grace of `maxProofAge` + `clockTolerance`, for instances
   *   whose clocks disagree
   * @param context - the service's clock and an abort signal
   * @returns `true` when the key was new, `false` when it was seen before (a replay)
   */
  remember(key: string, expiresAt: number, context: ReplayContext): Promise<boolean>;
  /** Warms what can be warmed (a connection, the table), for readiness probes. */
  ready?(): Promise<void>;
  /** Releases what the store holds. */
  close?(): Promise<void>;
}
