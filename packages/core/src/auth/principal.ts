/** Who made the request, as the bearer check verified it. Handed to the store and to the hooks. */
export interface Principal {
  /** The token's `sub` claim, when it has one. */
  readonly subject: string | undefined;
  /** Scopes granted by the token (`scope`, space-separated, or `scp`). */
  readonly scopes: readonly string[];
  /** Every claim of the verified token (or what a custom verifier chose to return). */
  readonly claims: Readonly<Record<string, unknown>>;
}
