// The parts of Cloudflare's D1 API the store uses, as structural types: a `D1Database` binding from
// @cloudflare/workers-types (or wrangler's generated types) fits them, and a user need not install
// those types for this package's to resolve.

/** A statement of {@link D1DatabaseLike}, `D1PreparedStatement` in @cloudflare/workers-types. */
export interface D1StatementLike {
  bind(...values: unknown[]): D1StatementLike;
}

/** What D1 answers a statement of a batch with. */
export interface D1ResultLike {
  readonly results?: readonly unknown[];
  readonly meta?: { readonly changes?: number };
}

/** A D1 database binding (`env.DB`), `D1Database` in @cloudflare/workers-types. */
export interface D1DatabaseLike {
  prepare(query: string): D1StatementLike;
  /** Runs the statements as one transaction: all of them, or none. */
  batch(statements: D1StatementLike[]): Promise<readonly D1ResultLike[]>;
}
