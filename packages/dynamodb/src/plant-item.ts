import type { PlantRecord, StoredPlant } from '@plantstore/core';
import { storedPlant } from '@plantstore/core/store-kit';

/** A low-level DynamoDB attribute value, of the kinds a plant's item holds. */
export type AttributeValue = { readonly N: string } | { readonly S: string };

/** An item as the low-level API carries it. */
export type Item = Readonly<Record<string, AttributeValue>>;

/** The partition key of the plants table, a string (S). */
export const PLANT_KEY = 'pk';

// Every attribute `existing` is made of, named through placeholders: `name` is a reserved word.
const READ = ['id', 'name', 'tag', 'tenant', 'createdBy', 'clientId', 'createdAt', 'tokenId'];

/** The projection of a plant's item, for `GetItem`. */
export const PLANT_PROJECTION = {
  ProjectionExpression: READ.map((name) => `#${name}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(READ.map((name) => [`#${name}`, name])),
};

/**
 * The key of the plant `id` in `tenant`: `pk` = `${tenant}#${id}` (`#5` when tenants are off). The
 * id, a sign and digits, is everything after the last `#`, so a tenant holding `#` (or `:`) can
 * never spell another tenant's key: `a#1` with id 5 is `a#1#5`, and no tenant `a` has an id `1#5`.
 */
export function plantKey(tenant: string, id: bigint): Item {
  return { [PLANT_KEY]: { S: `${tenant}#${id}` } };
}

/**
 * The item of a new plant: its key, the id as an exact DynamoDB number, the plant, and the audit
 * fields (`createdAt` as ISO 8601 text). A tag of `""` is stored as an empty string (DynamoDB allows
 * them in attributes that are not keys), an absent tag or audit field as no attribute.
 */
export function plantItem(plant: PlantRecord): Item {
  const item: Record<string, AttributeValue> = {
    ...plantKey(plant.tenant, plant.id),
    id: { N: plant.id.toString() },
    name: { S: plant.name },
    tenant: { S: plant.tenant },
    createdAt: { S: plant.createdAt.toISOString() },
  };
  const optional = {
    tag: plant.tag,
    createdBy: plant.createdBy,
    clientId: plant.clientId,
    tokenId: plant.tokenId,
  };
  for (const [name, value] of Object.entries(optional)) {
    if (value !== undefined) item[name] = { S: value };
  }
  return item;
}

/**
 * The plant of a stored item and its audit fields, checked by the kit's `storedPlant` against the
 * id asked for.
 *
 * @throws Error when the item does not have the shape of a plant
 */
export function plantOfItem(item: unknown, expectedId: bigint): StoredPlant {
  type Value = { readonly N?: unknown; readonly S?: unknown } | undefined;
  const values = (item ?? {}) as Readonly<Record<string, Value>>;
  // An attribute that is no string (no `S`) is handed on as it is, for the check to refuse.
  const text = (name: string): unknown => {
    const value = values[name];
    return value === undefined ? undefined : (value.S ?? value);
  };
  const fields = {
    id: values['id']?.N,
    name: values['name']?.S,
    tag: text('tag'),
    tenant: text('tenant'),
    createdBy: text('createdBy'),
    clientId: text('clientId'),
    createdAt: text('createdAt'),
    tokenId: text('tokenId'),
  };
  return storedPlant(fields, expectedId, 'dynamoDbStore');
}
