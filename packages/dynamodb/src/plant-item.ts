import type { NewPlant } from '@plantstore/core';

/** A low-level DynamoDB attribute value, of the kinds a plant's item holds. */
export type AttributeValue = { readonly N: string } | { readonly S: string };

/** An item as the low-level API carries it. */
export type Item = Readonly<Record<string, AttributeValue>>;

/** The key of the plant `id`: a DynamoDB number written as its exact decimal text. */
export function plantKey(id: bigint): Item {
  return { id: { N: id.toString() } };
}

/**
 * The item of a new plant. A tag of `""` is stored as an empty string (DynamoDB allows them in
 * attributes that are not keys), an absent tag as no attribute: the two stay apart.
 */
export function plantItem(plant: NewPlant, createdBy: string | undefined): Item {
  const item: Record<string, AttributeValue> = {
    id: { N: plant.id.toString() },
    name: { S: plant.name },
  };
  if (createdBy !== undefined) item['createdBy'] = { S: createdBy };
  if (plant.tag !== undefined) item['tag'] = { S: plant.tag };
  return item;
}

/**
 * The plant of a stored item: the id checked against the one asked for, the strings as stored.
 *
 * @throws Error when the item does not have the shape of a plant
 */
export function plantOfItem(item: unknown, expectedId: bigint): NewPlant {
  type Value = { readonly N?: unknown; readonly S?: unknown } | undefined;
  const { id, name, tag } = (item ?? {}) as Readonly<Record<string, Value>>;
  const sameId = typeof id?.N === 'string' && BigInt(id.N) === expectedId;
  const tagText = tag?.S;
  if (
    !sameId ||
    typeof name?.S !== 'string' ||
    (tag !== undefined && typeof tagText !== 'string')
  ) {
    throw new Error('dynamoDbStore: the stored item does not have the shape of a plant.');
  }
  const fields: NewPlant =
    typeof tagText === 'string'
      ? { id: expectedId, name: name.S, tag: tagText }
      : { id: expectedId, name: name.S };
  // A null-prototype record, as the core's parsed plants are: nothing inherited can pass for a field.
  return Object.freeze(Object.assign(Object.create(null) as NewPlant, fields));
}
