import type { StoredPlant } from '../plant/plant';

/**
 * The fields of a plant as an engine hands them back: the id as a bigint, decimal text or a number;
 * the audit fields kept beside it (`null` or absent for none), the creation time as a `Date`, ISO
 * 8601 text or epoch milliseconds.
 */
export interface StoredFields {
  readonly id?: unknown;
  readonly name?: unknown;
  /** `null` or `undefined` for no tag (SQL hands back NULL). */
  readonly tag?: unknown;
  readonly tenant?: unknown;
  readonly createdBy?: unknown;
  readonly clientId?: unknown;
  readonly createdAt?: unknown;
  readonly tokenId?: unknown;
}

type Writable = { -readonly [K in keyof StoredPlant]: StoredPlant[K] };

// Plants this copy of the core checked already: the core's judge takes them as they are.
const checked = new WeakSet<object>();

const TEXT_FIELDS = ['tenant', 'createdBy', 'clientId', 'tokenId'] as const;

/**
 * The plant a store read back, checked once for every store: the id is the one asked for (a bigint,
 * or the exact decimal text or safe integer drivers return int8 in), the name a string, the tag a
 * string or absent, the audit fields text or absent and the creation time a valid instant. Returns
 * a frozen null-prototype record, as the core's parsed plants are, so nothing inherited can pass for
 * a field; a field the row had no value for (NULL) is absent.
 *
 * @param fields - what the engine returned
 * @param expectedId - the id the insert asked for
 * @param store - the store's name, for the message
 * @returns the plant with its audit fields
 * @throws Error naming the store when the row is not the plant of that id (the core answers 500)
 * @example
 * ```ts
 * const [row] = await sql`SELECT id::text AS id, name, tag, created_by AS "createdBy" FROM plants
 *   WHERE tenant = ${plant.tenant} AND id = ${id}`;
 * return row === undefined ? undefined : storedPlant(row, plant.id, 'myStore');
 * ```
 */
export function storedPlant(fields: unknown, expectedId: bigint, store = 'The store'): StoredPlant {
  const row = (fields ?? {}) as StoredFields;
  const { id, name, tag } = row;
  if (!sameId(id, expectedId)) {
    throw new Error(`${store}: the stored plant is not the plant of id ${expectedId}.`);
  }
  if (typeof name !== 'string' || !isText(tag) || !TEXT_FIELDS.every((key) => isText(row[key]))) {
    throw new Error(`${store}: the stored row does not have the shape of a plant.`);
  }
  const createdAt = instantOf(row.createdAt);
  if (createdAt === null) throw new Error(`${store}: the stored creation time is not an instant.`);
  const plant = Object.create(null) as Writable;
  plant.id = expectedId;
  plant.name = name;
  if (typeof tag === 'string') plant.tag = tag;
  for (const key of TEXT_FIELDS) {
    const value = row[key];
    if (typeof value === 'string') plant[key] = value;
  }
  if (createdAt !== undefined) plant.createdAt = createdAt;
  checked.add(plant);
  return Object.freeze(plant);
}

/**
 * The core's side of {@link storedPlant}: a plant that check returned for this id is taken as it
 * is, anything else (a custom store's own object) is checked now.
 *
 * @param existing - what the store reported as stored
 * @param expectedId - the id the insert asked for
 * @returns the plant
 * @throws Error when it is not the plant of that id
 */
export function reportedPlant(existing: unknown, expectedId: bigint): StoredPlant {
  if (typeof existing === 'object' && existing !== null && checked.has(existing)) {
    const plant = existing as StoredPlant;
    if (plant.id === expectedId) return plant;
  }
  return storedPlant(existing, expectedId);
}

function isText(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

/** A copy of the stored time (a `Date` is mutable), `undefined` for none, `null` when not an instant. */
function instantOf(value: unknown): Date | undefined | null {
  if (value === undefined || value === null) return undefined;
  let time = Number.NaN;
  if (value instanceof Date) time = value.getTime();
  else if (typeof value === 'number') time = value;
  else if (typeof value === 'string') time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time) : null;
}

/** The id a store reports, as a bigint or as the exact digits drivers return int8 in. */
function sameId(reported: unknown, requested: bigint): boolean {
  if (typeof reported === 'bigint') return reported === requested;
  if (typeof reported === 'string')
    return /^-?\d{1,19}$/u.test(reported) && BigInt(reported) === requested;
  return (
    typeof reported === 'number' && Number.isSafeInteger(reported) && BigInt(reported) === requested
  );
}
