// The outbox's scripts, each one atomic step on one bucket's keys (one slot). A bucket's stream
// holds its pending events in the order written, fields `id`, `tenant`, `plant`, `time` (epoch ms),
// `body` and `at` (the server's clock in microseconds when written: the order across buckets); beside it, in the same slot: the index (event id → stream entry id),
// the tries (event id → JSON [attempts, retry-at ms, last error]), the dead set (event id scored by
// its `at`) and the dead events held (event id → JSON [tenant, plant, time, body, attempts, error,
// at]).
// Numbers cross as strings: cjson would round big ones.

/**
 * Up to ARGV[1] due events of one bucket, oldest first. KEYS: stream, tries; ARGV: limit, now (epoch
 * ms), how many entries to look at at most. Returns [at, event id, tenant, plant, time, body,
 * attempts, last error] each.
 */
export const DUE_EVENTS = `local limit, now, budget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local out, from = {}, '-'
while #out < limit and budget > 0 do
  local page = redis.call('XRANGE', KEYS[1], from, '+', 'COUNT', math.min(budget, 100))
  if #page == 0 then break end
  for _, entry in ipairs(page) do
    budget = budget - 1
    from = '(' .. entry[1]
    local f = entry[2]
    local tries = redis.call('HGET', KEYS[2], f[2])
    local held = tries and cjson.decode(tries) or {'0', '0', ''}
    if tonumber(held[2]) <= now then
      table.insert(out, {f[12], f[2], f[4], f[6], f[8], f[10], held[1], held[3]})
      if #out == limit then break end
    end
  end
end
return out`;

/** Removes delivered events. KEYS: stream, index, tries; ARGV: event ids. Returns how many. */
export const DELIVERED_EVENTS = `local n = 0
for _, id in ipairs(ARGV) do
  local entry = redis.call('HGET', KEYS[2], id)
  if entry then
    n = n + redis.call('XDEL', KEYS[1], entry)
    redis.call('HDEL', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
  end
end
return n`;

/**
 * Records a failed delivery. KEYS: stream, index, tries, dead, held; ARGV: event id, attempts,
 * retry-at (epoch ms, '' makes it dead), error. A dead event leaves the stream for the held hash,
 * so that it never blocks the due scan. Returns 1 when the event was pending, else 0.
 */
export const FAILED_EVENT = `local entry = redis.call('HGET', KEYS[2], ARGV[1])
if not entry then return 0 end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[1], cjson.encode({ARGV[2], ARGV[3], ARGV[4]}))
  return 1
end
local found = redis.call('XRANGE', KEYS[1], entry, entry)
redis.call('XDEL', KEYS[1], entry)
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
if #found == 0 then return 0 end
local f = found[1][2]
redis.call('HSET', KEYS[5], ARGV[1], cjson.encode({f[4], f[6], f[8], f[10], ARGV[2], ARGV[4], f[12]}))
redis.call('ZADD', KEYS[4], f[12], ARGV[1])
return 1`;

/** Up to ARGV[1] dead events, oldest first. KEYS: dead, held. Returns [event id, held JSON] each. */
export const DEAD_EVENTS = `local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)) do
  local held = redis.call('HGET', KEYS[2], id)
  if held then table.insert(out, {id, held}) end
end
return out`;

/**
 * Makes dead events pending again, with no attempts, at the stream's end but with their `at`, so
 * that they keep their place among the events handed out together. KEYS: stream, index, dead,
 * held; ARGV: event ids, or none for every dead event. Returns how many.
 */
export const REDRIVE_EVENTS = `local ids = ARGV
if #ids == 0 then ids = redis.call('ZRANGE', KEYS[3], 0, -1) end
local n = 0
for _, id in ipairs(ids) do
  local held = redis.call('HGET', KEYS[4], id)
  if held then
    local e = cjson.decode(held)
    local entry = redis.call('XADD', KEYS[1], '*', 'id', id, 'tenant', e[1], 'plant', e[2], 'time', e[3], 'body', e[4], 'at', e[7])
    redis.call('HSET', KEYS[2], id, entry)
    redis.call('HDEL', KEYS[4], id)
    redis.call('ZREM', KEYS[3], id)
    n = n + 1
  end
end
return n`;

/**
 * Takes or renews the relay lease. KEYS: lease; ARGV: holder, now, ms. The value held is
 * `expires-at|holder`, judged against the relay's `now`, never Redis's clock; the key's TTL only
 * cleans up, a minute after the lease's end. Returns 1 when held, else 0.
 */
export const TAKE_LEASE = `local held = redis.call('GET', KEYS[1])
if held then
  local bar = string.find(held, '|', 1, true)
  local ends, holder = tonumber(string.sub(held, 1, bar - 1)), string.sub(held, bar + 1)
  if holder ~= ARGV[1] and ends > tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], (tonumber(ARGV[2]) + tonumber(ARGV[3])) .. '|' .. ARGV[1], 'PX', tonumber(ARGV[3]) + 60000)
return 1`;

/** Gives the lease up when ARGV[1] holds it. KEYS: lease. */
export const RELEASE_LEASE = `local held = redis.call('GET', KEYS[1])
if held and string.sub(held, string.find(held, '|', 1, true) + 1) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return 0`;
