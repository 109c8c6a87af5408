import { describe, expect, it } from 'vitest';
import type { MysqlConnectionLike } from '../src/clients';
import type { KillOutcome } from '../src/kill-query';
import { killStatement } from '../src/kill-statement';

const target = { threadId: 7, config: {}, query: () => undefined } as MysqlConnectionLike;

/** An attempt that answers `outcomes` in turn (the last one for ever), counting its calls. */
function attempts(...outcomes: KillOutcome[]) {
  const made: string[] = [];
  const attempt = (_target: MysqlConnectionLike, mark: string): Promise<KillOutcome> => {
    made.push(mark);
    return Promise.resolve(outcomes[Math.min(made.length, outcomes.length) - 1] ?? 'refused');
  };
  return { attempt, made };
}

const never = new Promise<never>(() => undefined);

describe('killStatement', () => {
  it('retries a kill the server refused while the statement runs, until one lands', async () => {
    const { attempt, made } = attempts('refused', 'refused', 'absent', 'killed');
    const reusable = await killStatement({
      target,
      mark: 'm',
      until: never,
      watching: true,
      attempt,
    });
    expect([reusable, made]).toEqual([true, ['m', 'm', 'm', 'm']]);
  });

  it('stops once the statement has ended, and counts the connection reusable: no kill was delivered', async () => {
    let end: () => void = () => undefined;
    const until = new Promise<void>((resolve) => (end = resolve));
    const { attempt, made } = attempts('refused');
    const trying = killStatement({ target, mark: 'm', until, watching: true, attempt });
    await new Promise((resolve) => setTimeout(resolve, 120));
    end();
    const tried = made.length;
    expect(await trying).toBe(true);
    expect(tried).toBeGreaterThanOrEqual(2);
    expect(made.length).toBe(tried);
  });

  it('takes a server that shows no such statement at its word when the statement cannot be watched (its connection was lost)', async () => {
    const { attempt, made } = attempts('refused', 'absent');
    const reusable = await killStatement({
      target,
      mark: 'm',
      until: never,
      watching: false,
      attempt,
    });
    expect([reusable, made.length]).toEqual([false, 2]);
  });

  it('makes its one attempt when the statement ended as the time-out fired, and stops there', async () => {
    const { attempt, made } = attempts('absent');
    const reusable = await killStatement({
      target,
      mark: 'm',
      until: Promise.resolve(),
      watching: true,
      attempt,
    });
    expect([reusable, made.length]).toEqual([true, 1]);
  });
});
