import type { Agent } from 'node:http';
import { plantBody, type Reply, send } from '@plantstore/http-suite/client';
import type { Exchange, SentPlant } from '../check/nothing-lost';
import { type AttemptOutcome, untilSettled } from '../client/until-settled';
import { exactName, spreadId } from './exact-plants';

/** One request of an identity-provider scenario: a fresh plant with a token of some key. */
export interface TokenOp {
  /** Which key signed the token, or what the request is meant to show. */
  readonly label: string;
  readonly token: string;
  readonly plant: SentPlant;
}

/** The first answer to a {@link TokenOp}, and when it was sent. */
export interface TokenOutcome {
  readonly op: TokenOp;
  readonly status: AttemptOutcome;
  readonly reply: Reply | undefined;
  /** When the request was sent, in epoch milliseconds. */
  readonly sentAt: number;
  /** How long its answer took. */
  readonly ms: number;
}

/** Options of {@link runTokenLoad}. */
export interface TokenLoadOptions {
  readonly url: string;
  readonly workers: number;
  /** The next request's label and token; the plant is made here. */
  readonly next: () => Promise<{ readonly label: string; readonly token: string }>;
  /** The load runs until this resolves. */
  readonly until: Promise<unknown>;
  readonly space: number;
  readonly agent?: Agent;
}

/**
 * Clients sending fresh plants with tokens of chosen keys while the test changes the identity
 * provider under them. Each request is sent once; retrying is up to the test.
 *
 * @param options - the host, the token of each request, and when to stop
 * @returns every request with its answer
 */
export async function runTokenLoad(options: TokenLoadOptions): Promise<TokenOutcome[]> {
  let stop = false;
  void options.until.then(() => {
    stop = true;
  });
  const outcomes: TokenOutcome[] = [];
  let index = 0;
  const worker = async (): Promise<void> => {
    while (!stop) {
      const { label, token } = await options.next();
      const plant = { id: spreadId(options.space, index), name: exactName(`${label} ${index}`) };
      index += 1;
      const op = { label, token, plant };
      const sentAt = Date.now();
      const reply = await sendTokenOp(options.url, op, options.agent).catch(() => undefined);
      outcomes.push({
        op,
        status: reply?.status ?? 'dropped',
        reply,
        sentAt,
        ms: Date.now() - sentAt,
      });
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return outcomes;
}

/**
 * Sends one {@link TokenOp}.
 *
 * @param url - the host
 * @param op - the request
 * @param agent - a keep-alive agent, if any
 * @returns the answer
 */
export function sendTokenOp(url: string, op: TokenOp, agent?: Agent): Promise<Reply> {
  return send(url, {
    headers: { authorization: `Bearer ${op.token}`, 'content-type': 'application/json' },
    body: plantBody(op.plant),
    ...(agent === undefined ? {} : { agent }),
  });
}

/**
 * Retries the requests that got a 5xx or no answer until they have a final one (invariant 4), and
 * turns every request into an exchange: 401s and 403s are refusals that must leave no trace.
 *
 * @param url - the host
 * @param outcomes - what {@link runTokenLoad} saw
 * @returns one exchange per request, with its final answer
 */
export async function settleTokenOutcomes(
  url: string,
  outcomes: readonly TokenOutcome[],
): Promise<Exchange[]> {
  return Promise.all(
    outcomes.map(async ({ op, status, reply }) => {
      let final = reply;
      if (status === 'dropped' || status >= 500) {
        final = (await untilSettled(() => sendTokenOp(url, op), { pauseMs: 100, maxAttempts: 50 }))
          .reply;
      }
      const finalStatus = final?.status ?? 'dropped';
      const refused = finalStatus === 401 || finalStatus === 403;
      return {
        plant: op.plant,
        final: finalStatus,
        body: final?.text,
        refused,
        expected: refused ? [401, 403] : [200],
      };
    }),
  );
}
