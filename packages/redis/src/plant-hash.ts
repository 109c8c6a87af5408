import type { NewPlant } from '@plantstore/core';

/** A reply string as text: node-redis and ioredis give strings, or Buffers under a Buffer type mapping. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
}

/**
 * The plant held in a hash, from the script's HGETALL (field, value, field, value…), under the id it
 * was asked for (the key holds no other).
 *
 * @throws Error when the reply is not the hash of a plant (a key written by something else): a 500
 */
export function plantOfHash(id: bigint, reply: unknown): NewPlant {
  const fields = new Map<string, string>();
  if (Array.isArray(reply)) {
    for (let at = 0; at + 1 < reply.length; at += 2) {
      const field = text(reply[at]);
      const value = text(reply[at + 1]);
      if (field !== undefined && value !== undefined) fields.set(field, value);
    }
  }
  const name = fields.get('name');
  if (name === undefined) throw new Error(`redisStore: the hash of plant ${id} has no name.`);
  const tag = fields.get('tag');
  // A null-prototype record, as the core's parsed plants are: nothing inherited passes for a field.
  const plant = tag === undefined ? { id, name } : { id, name, tag };
  return Object.freeze(Object.assign(Object.create(null) as NewPlant, plant));
}
