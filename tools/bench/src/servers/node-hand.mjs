// Baseline: the same job hand-written on node:http: jose, a valibot schema built once, a Map, and a
// body read with a size limit.
import { createServer } from 'node:http';
import * as v from 'valibot';
import { bearerToken, errors, savePlant, verifyToken } from './shared/hand-written.mjs';
import { serve } from './shared/serve.mjs';

const LIMIT = 16_384;
const PlantSchema = v.object({
  id: v.pipe(v.number(), v.safeInteger()),
  name: v.string(),
  tag: v.optional(v.string()),
});
const plants = new Map();

function send(res, status, value, headers = {}) {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/** Resolves the body text, or undefined when it is over the limit or the stream fails. */
function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > LIMIT) {
        resolve(undefined);
        req.pause();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', () => resolve(undefined));
  });
}

async function handle(req, res) {
  if (req.method !== 'POST' || req.url !== '/plants') {
    send(res, 404, { error: 404, message: 'Not found.' });
    return;
  }
  const token = bearerToken(req.headers.authorization);
  const claims = token === undefined ? undefined : await verifyToken(token);
  if (claims === undefined) {
    send(res, 401, errors.unauthorized, { 'www-authenticate': 'Bearer' });
    return;
  }
  const text = await readBody(req);
  let parsed;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = v.safeParse(PlantSchema, parsed);
  if (!result.success) {
    send(res, 400, errors.invalid);
    return;
  }
  const plant = result.output;
  if (!savePlant(plants, plant)) {
    send(res, 409, errors.conflict);
    return;
  }
  send(res, 200, { name: plant.name, tag: plant.tag });
}

serve(
  createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { error: 500, message: 'Internal error.' }));
  }),
);
