// Memory under sustained load: RSS after 10 s against RSS at the end (60 s by default) in a fresh
// server. The load cycles through twice as many distinct tokens as the verified-token cache holds
// (so the cache fills and evicts all the time) and over 10,000 ids (so memoryStore, which grows
// without bound by design, stops growing after the first second and only the route's own memory
// is left to watch).
import { setTimeout as sleep } from 'node:timers/promises';
import { signToken } from '../config.mjs';
import { load } from './load.mjs';
import { memory, startServer } from './processes.mjs';

const DISTINCT_TOKENS = 2_000;
const DISTINCT_IDS = 10_000;

/**
 * @param {{ id: string }} setup
 * @param {{ seconds: number, connections: number, early?: number }} options
 */
export async function memoryCheck(setup, { seconds, connections, early = 10 }) {
  const tokens = await Promise.all(
    Array.from({ length: DISTINCT_TOKENS }, (_, i) => signToken({ subject: `client-${i}` })),
  );
  let t = 0;
  let id = 0;
  const server = await startServer(setup);
  try {
    const samples = [];
    const started = Date.now();
    const sampler = setInterval(() => {
      samples.push({ at: (Date.now() - started) / 1000, ...memory(server.pid) });
    }, 500);
    const result = await load({
      url: server.url,
      seconds,
      connections,
      sameToken: false,
      token: () => tokens[t++ % DISTINCT_TOKENS],
      body: () => `{"id":${(id++ % DISTINCT_IDS) + 1},"name":"Monstera","tag":"aroid"}`,
    });
    clearInterval(sampler);
    await sleep(100);
    const last = memory(server.pid);
    const atEarly = samples.reduce((best, s) =>
      Math.abs(s.at - early) < Math.abs(best.at - early) ? s : best,
    );
    return {
      id: setup.id,
      seconds,
      early,
      rssEarly: atEarly.rss,
      rssEnd: last.rss,
      peak: last.peak,
      growth: last.rss / atEarly.rss - 1,
      perSecond: result.perSecond,
      non2xx: result.non2xx,
    };
  } finally {
    await server.stop();
  }
}
