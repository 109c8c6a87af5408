/**
 * A plant as a client creates it: the body of `POST /plants` after validation. Records inherit
 * nothing (their prototype chain ends in an empty object), so nothing of `Object.prototype` can pass
 * for a field.
 */
export interface NewPlant {
  /** The int64 id, exact: never rounded through a float. */
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

/** A plant as the route answers it: the stored plant without its `id`. */
export interface Plant {
  readonly name: string;
  readonly tag?: string;
}
