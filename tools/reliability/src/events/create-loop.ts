/** Creates sent from a client loop, and which of them the app acknowledged. */
export interface CreateLoop {
  /** The ids of the plants answered 200, as decimal text (the events' `subject`). */
  readonly acknowledged: ReadonlySet<string>;
  /** Requests that got no 200 (refused connections, 503s while the database was down). */
  readonly unanswered: number;
  /** Stops the loop once the requests under way have settled. */
  stop(): Promise<void>;
}

/**
 * Sends `POST {url}/plants` from `workers` loops at once, each with a fresh id, until stopped; the
 * app's URL is read before each request, so that the loop follows a restarted app. A failure is
 * counted and followed by a short pause, never retried: only what was acknowledged must be delivered.
 *
 * @param target - the app's current URL
 * @param token - a bearer token the app accepts
 * @param firstId - the first plant id; each create takes the next
 * @param workers - requests in flight at once
 * @returns the running loop
 */
export function startCreateLoop(
  target: () => string,
  token: string,
  firstId: bigint,
  workers = 4,
): CreateLoop {
  const acknowledged = new Set<string>();
  let unanswered = 0;
  let next = firstId;
  let running = true;
  const worker = async (): Promise<void> => {
    while (running) {
      const id = (next += 1n);
      const answer = await fetch(`${target()}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: `{"id":${id},"name":"crash ${id}"}`,
        signal: AbortSignal.timeout(5_000),
      }).catch(() => undefined);
      await answer?.arrayBuffer().catch(() => undefined);
      if (answer?.status === 200) acknowledged.add(String(id));
      else {
        unanswered += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const loops = Array.from({ length: workers }, worker);
  return {
    acknowledged,
    get unanswered() {
      return unanswered;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
