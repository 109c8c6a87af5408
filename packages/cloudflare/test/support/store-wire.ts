// What the test process sends the stores' Worker (workers/stores-worker.ts), and what it answers,
// as JSON: ids as decimal text, so an int64 stays exact on the way.

/** A plant on the wire. */
export interface WirePlant {
  readonly id: string;
  readonly name: string;
  readonly tag?: string;
  // The record's tenant and audit fields; createdAt as ISO 8601.
  readonly tenant?: string;
  readonly createdBy?: string;
  readonly clientId?: string;
  readonly createdAt?: string;
  readonly tokenId?: string;
}

/**
 * Which store in the Worker a call is for: one instance per `instance` id, kept across calls so
 * that `close()` and the calls after it meet the same store; `silent` builds it on a binding that
 * never answers (the lifecycle's silent backend).
 */
export interface WireStore {
  readonly instance: string;
  readonly silent: boolean;
  /** The replay store's key prefix; absent for the D1 store. */
  readonly prefix?: string;
}

/** One call of a store under test, and whether its signal had already fired. */
export type StoreCall = { readonly aborted: boolean; readonly store: WireStore } & (
  | { readonly kind: 'insert'; readonly plant: WirePlant }
  | {
      readonly kind: 'remember';
      readonly key: string;
      readonly expiresAt: number;
      readonly now: number;
    }
  | { readonly kind: 'ready' }
  | { readonly kind: 'close' }
);

/** The store's answer, or how it failed (with the error's `status` and `code`, when it had them). */
export type StoreAnswer =
  | { readonly created: true }
  | { readonly created: false; readonly existing: WirePlant }
  | { readonly remembered: boolean }
  | { readonly done: true }
  | { readonly failed: string; readonly status?: number; readonly code?: string };
