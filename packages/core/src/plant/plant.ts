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

/**
 * What the core hands {@link PlantStore.insert}: the plant and who created it, where and when. A
 * store keeps every field beside the plant (for audit, and for the owner rule of a later replay) and
 * keys it by `(tenant, id)`. None of it is in the 200 body.
 */
export interface PlantRecord extends NewPlant {
  /** The tenant the id belongs to: `''` when the service's `tenant` option is off. */
  readonly tenant: string;
  /** The token's `sub`, when it has one. */
  readonly createdBy: string | undefined;
  /** The token's `client_id`, else its `azp`, when it names a client. */
  readonly clientId: string | undefined;
  /** When the core accepted the create (its clock, not the database's). */
  readonly createdAt: Date;
  /** The token's `jti`, when it has one. */
  readonly tokenId: string | undefined;
}

/**
 * A plant as a store reports it under an id it already holds. The audit fields are optional: a row
 * stored before the owner was kept (before 0.x of issue #49) has none, and a store may give `null`
 * for a column that holds nothing. Such a row never replays under the default owner rule.
 */
export interface StoredPlant extends NewPlant {
  readonly tenant?: string | null | undefined;
  readonly createdBy?: string | null | undefined;
  readonly clientId?: string | null | undefined;
  readonly createdAt?: Date | null | undefined;
  readonly tokenId?: string | null | undefined;
}
