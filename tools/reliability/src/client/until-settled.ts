import type { Reply } from '@plantstore/http-suite/client';

/** What a client saw on one attempt: a status, or `dropped` (connection lost, or no answer in time). */
export type AttemptOutcome = number | 'dropped';

/** The last answer a retrying client got, and every outcome on the way. */
export interface Settled {
  /** The last answer; undefined when every attempt was dropped. */
  readonly reply: Reply | undefined;
  readonly attempts: readonly AttemptOutcome[];
}

/** Whether a client should try again: a 5xx, a 408, or no answer at all (invariant 4 says it may). */
export function isRetryable(outcome: AttemptOutcome): boolean {
  return outcome === 'dropped' || outcome === 408 || outcome >= 500;
}

/**
 * Sends until the answer is final (anything but a 5xx, a 408 or a dropped connection), as a client
 * that honours invariant 4 does. A 503 must carry `Retry-After`; the pause is kept short here
 * (scenarios compress time), where a real client waits what `Retry-After` says.
 *
 * @param send - one attempt
 * @param options - the most attempts, and the pause between them in milliseconds
 * @returns the last answer and every outcome
 */
export async function untilSettled(
  send: () => Promise<Reply>,
  options: { readonly maxAttempts?: number; readonly pauseMs?: number } = {},
): Promise<Settled> {
  const maxAttempts = options.maxAttempts ?? 100;
  const attempts: AttemptOutcome[] = [];
  let reply: Reply | undefined;
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    try {
      reply = await send();
      attempts.push(reply.status);
      if (!isRetryable(reply.status)) break;
    } catch {
      reply = undefined;
      attempts.push('dropped');
    }
    await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 25));
  }
  return { reply, attempts };
}
