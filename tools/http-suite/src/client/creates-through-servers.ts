import { concurrentCreates, inFlight, type ExactPlant } from './concurrent-creates';
import { keepAliveClient } from './send';

// As long as the server processes' store time-out: the load judges what is stored and answered, not
// how fast, and on a machine shared with other work a create can wait its turn for many seconds.
const ANSWER_MS = 120_000;

/** What one create of a load through several servers was answered. */
export interface CreateOutcome {
  readonly plant: ExactPlant;
  readonly status: number;
  readonly text: string;
}

/** A plant as a store package's test read it back from the database. */
export interface StoredPlant {
  readonly name?: string | undefined;
  readonly tag?: string | undefined;
}

/**
 * Sends the creates of {@link concurrentCreates} (ten per plant) to the servers in turn, 200 at a
 * time, over keep-alive connections, each with the bearer `token`.
 *
 * @returns each create's answer, and how long the load took
 */
export async function createsThroughServers(
  ports: readonly number[],
  token: string,
  plants: readonly ExactPlant[],
  seed: number,
): Promise<{ outcomes: CreateOutcome[]; elapsed: number }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const clients = ports.map((port) => keepAliveClient(`http://127.0.0.1:${port}`, 100));
  const started = Date.now();
  try {
    const outcomes = await inFlight(
      concurrentCreates(plants, seed),
      200,
      async (attempt, index) => {
        const client = clients[index % clients.length];
        if (client === undefined) throw new Error('no server to send to');
        const reply = await client.send({ body: attempt.body, headers, timeoutMs: ANSWER_MS });
        return { plant: attempt.plant, status: reply.status, text: reply.text };
      },
    );
    return { outcomes, elapsed: Date.now() - started };
  } finally {
    for (const client of clients) client.close();
  }
}

/**
 * Judges a load's answers by what the database holds: a create whose plant is the stored one must
 * have been answered 200 with its name and tag, any other 409.
 *
 * @returns the count of each status, and what was wrong (empty when nothing was)
 */
export function judgeCreates(
  outcomes: readonly CreateOutcome[],
  stored: ReadonlyMap<bigint, StoredPlant>,
): { statuses: Record<number, number>; problems: string[] } {
  const statuses: Record<number, number> = {};
  const problems: string[] = [];
  for (const { plant, status, text } of outcomes) {
    statuses[status] = (statuses[status] ?? 0) + 1;
    const found = stored.get(plant.id);
    if (found === undefined) {
      problems.push(`no record for id ${plant.id}`);
      continue;
    }
    const same = found.name === plant.name && found.tag === plant.tag;
    const body = JSON.stringify(found.tag === undefined ? { name: found.name } : found);
    if (status !== (same ? 200 : 409)) problems.push(`id ${plant.id}: ${status} ${text}`);
    else if (same && JSON.stringify(JSON.parse(text)) !== body) {
      problems.push(`id ${plant.id}: answered ${text}, stored ${body}`);
    }
  }
  return { statuses, problems };
}
