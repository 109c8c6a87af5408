// Baseline on Redis: the same job hand-written on Express 5 (express.json(), jose, type checks),
// stored with the same node-redis client doing the same write as a competent developer would: one
// Lua script that returns the stored hash or writes it (first write wins, atomically), then the
// stored plant compared with the request.
import { createServer } from 'node:http';
import express from 'express5';
import { handWrittenApp } from './shared/express-hand.mjs';
import { openRedis } from './shared/redis.mjs';
import { serve } from './shared/serve.mjs';

const SCRIPT = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HGETALL', KEYS[1]) end
local fields = { 'name', ARGV[1], 'by', ARGV[4] }
if ARGV[2] == '1' then fields[5] = 'tag'; fields[6] = ARGV[3] end
redis.call('HSET', KEYS[1], unpack(fields))
return 1`;

const { client, prefix, close } = await openRedis();

/** Stores the plant unless its id exists; false when the stored plant differs. */
async function savePlant({ id, name, tag }, subject) {
  const answer = await client.eval(SCRIPT, {
    keys: [`${prefix}{${id}}`],
    arguments: [name, tag === undefined ? '0' : '1', tag ?? '', subject ?? ''],
  });
  if (answer === 1) return true;
  const stored = Object.fromEntries(
    Array.from({ length: answer.length / 2 }, (_, at) => [answer[2 * at], answer[2 * at + 1]]),
  );
  return stored.name === name && stored.tag === tag;
}

serve(createServer(handWrittenApp(express, savePlant)), close);
