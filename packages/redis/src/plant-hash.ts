import type { StoredPlant } from '@plantstore/core';
import { storedPlant } from '@plantstore/core/store-kit';

/** A reply string as text: node-redis and ioredis give strings, or Buffers under a Buffer type mapping. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
}

/**
 * The plant held in a hash, from the script's HGETALL (field, value, field, value…), under the id it
 * was asked for (the key holds no other).
 *
 * @throws Error when the reply is not the hash of a plant (a key written by something else): a 500
 */
export function plantOfHash(id: bigint, reply: unknown): StoredPlant {
  const fields = new Map<string, string>();
  if (Array.isArray(reply)) {
    for (let at = 0; at + 1 < reply.length; at += 2) {
      const field = text(reply[at]);
      const value = text(reply[at + 1]);
      if (field !== undefined && value !== undefined) fields.set(field, value);
    }
  }
  const at = fields.get('at');
  // The key holds no other id than the one in its name; the time is kept as epoch milliseconds.
  const stored = {
    id,
    name: fields.get('name'),
    tag: fields.get('tag'),
    tenant: fields.get('tenant'),
    createdBy: fields.get('by'),
    clientId: fields.get('client'),
    createdAt: at === undefined ? undefined : Number(at),
    tokenId: fields.get('jti'),
  };
  return storedPlant(stored, id, 'redisStore');
}
