// Each script is one atomic step on the server: no other command runs between its read and its write,
// so of concurrent inserts of an id exactly one writes. They are sent with EVAL, never EVALSHA: a
// replica just promoted, or a server just restarted, has an empty script cache, and EVAL never meets
// NOSCRIPT (the server caches the compiled script by its SHA-1 all the same).

/**
 * Inserts a plant unless its key exists. KEYS[1] the plant's hash; ARGV: name, has-tag ('1' or '0'),
 * tag, created by. Returns 1 when it wrote, else the stored hash as field, value, field, value…
 */
export const INSERT_PLANT = `local held = redis.call('HGETALL', KEYS[1])
if #held > 0 then return held end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'name', ARGV[1], 'tag', ARGV[3], 'by', ARGV[4])
else
  redis.call('HSET', KEYS[1], 'name', ARGV[1], 'by', ARGV[4])
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
