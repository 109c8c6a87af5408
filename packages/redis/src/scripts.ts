// Each script is one atomic step on the server: no other command runs between its read and its write,
// so of concurrent inserts of an id exactly one writes. They are sent with EVAL, never EVALSHA: a
// replica just promoted, or a server just restarted, has an empty script cache, and EVAL never meets
// NOSCRIPT (the server caches the compiled script by its SHA-1 all the same).

/**
 * Inserts a plant unless its key exists. KEYS[1] the plant's hash; ARGV: name, has-tag ('1' or '0'),
 * tag, then the audit fields: created by, client id, created at (epoch ms), token id, tenant; an
 * empty one is not written. Returns 1 when it wrote, else the stored hash as field, value, field,
 * value… With events, KEYS[2] and KEYS[3] are the bucket's outbox stream and index (the plant's
 * slot) and ARGV[9..13] the event (id, tenant, plant id, time in epoch ms, body): written only with
 * the plant, in the same script, so a replay or a conflict writes no event. Its `at` is the
 * server's clock in microseconds, which orders the events of different buckets.
 */
export const INSERT_PLANT = `local held = redis.call('HGETALL', KEYS[1])
if #held > 0 then return held end
local fields = {'name', ARGV[1], 'at', ARGV[6], 'tenant', ARGV[8]}
if ARGV[2] == '1' then table.insert(fields, 'tag'); table.insert(fields, ARGV[3]) end
if ARGV[4] ~= '' then table.insert(fields, 'by'); table.insert(fields, ARGV[4]) end
if ARGV[5] ~= '' then table.insert(fields, 'client'); table.insert(fields, ARGV[5]) end
if ARGV[7] ~= '' then table.insert(fields, 'jti'); table.insert(fields, ARGV[7]) end
redis.call('HSET', KEYS[1], unpack(fields))
if KEYS[2] then
  local t = redis.call('TIME')
  local entry = redis.call('XADD', KEYS[2], '*', 'id', ARGV[9], 'tenant', ARGV[10], 'plant', ARGV[11], 'time', ARGV[12], 'body', ARGV[13], 'at', t[1] .. string.format('%06d', t[2]))
  redis.call('HSET', KEYS[3], ARGV[9], entry)
end
return 1`;

/**
 * Remembers a one-time key. KEYS[1] the key; ARGV: expiresAt, now, TTL in ms. The value held is
 * `expiresAt`, judged against the service's `now`, never Redis's clock; the TTL only cleans up, and
 * runs to `expiresAt`, grace included. Returns 1 when the key was new (or had expired), else 0.
 */
export const REMEMBER_KEY = `local held = tonumber(redis.call('GET', KEYS[1]))
if held and held > tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1`;
