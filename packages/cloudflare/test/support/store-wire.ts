// What the test process sends the stores' Worker (workers/stores-worker.ts), and what it answers,
// as JSON: ids as decimal text, so an int64 stays exact on the way.

/** A plant on the wire. */
export interface WirePlant {
  readonly id: string;
  readonly name: string;
  readonly tag?: string;
}

/** One call of a store under test, and whether its signal had already fired. */
export type StoreCall = { readonly aborted: boolean } & (
  | { readonly kind: 'insert'; readonly plant: WirePlant }
  | {
      readonly kind: 'remember';
      readonly prefix: string;
      readonly key: string;
      readonly expiresAt: number;
      readonly now: number;
    }
);

/** The store's answer, or how it failed. */
export type StoreAnswer =
  | { readonly created: true }
  | { readonly created: false; readonly existing: WirePlant }
  | { readonly remembered: boolean }
  | { readonly failed: string };
