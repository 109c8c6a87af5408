import { deliverBatch, type RoundCounts, shortText } from './deliver-batch';
import type { DeadEvent } from './outbox';
import { publish } from './relay-channels';
import { type EventRelayOptions, relayConfig } from './relay-options';

/** What one round of the relay did, or several added up (`drain()`). */
export interface RelayRound extends RoundCounts {
  /** Whether this relay held the lease: false while another relay delivers. */
  readonly leased: boolean;
  /** Events that were due and handed to the sink. */
  readonly due: number;
}

/** The relay: delivers the outbox's events to a sink, at least once, while it holds the lease. */
export interface EventRelay {
  /** Starts delivering in the background, round after round, until `stop()`. */
  start(): void;
  /** Stops: starts no new send, waits for those under way, releases the lease. Never rejects. */
  stop(): Promise<void>;
  /** One round: take or renew the lease, read the due events, deliver them. Never rejects. */
  runOnce(): Promise<RelayRound>;
  /** Rounds until one delivers nothing (none due, all failed, or the lease is another's): for scripts and tests. */
  drain(): Promise<RelayRound>;
  /** The dead events, oldest first (default 100). */
  dead(limit?: number): Promise<readonly DeadEvent[]>;
  /** Makes dead events (those of `ids`, else all) due again with no attempts; resolves how many. */
  redrive(ids?: readonly string[]): Promise<number>;
}

const NOT_LEASED: RelayRound = Object.freeze({
  leased: false,
  due: 0,
  delivered: 0,
  failed: 0,
  dead: 0,
});
const IDLE: RelayRound = Object.freeze({ ...NOT_LEASED, leased: true });

/**
 * Makes the relay that delivers `plant.created` events from a store's outbox to a sink: at least
 * once (an event is marked delivered only after the sink confirmed it), in order per plant, with
 * exponential back-off and jitter between attempts, dead after `maxAttempts`. One relay delivers
 * at a time across the app's instances: the one that holds the outbox's lease, renewed every round.
 * Failures of the outbox or the sink never reject: they are logged (`warn`) and published on
 * `node:diagnostics_channel` ({@link EVENT_CHANNELS}), with each delivery's lag.
 *
 * @param options - the outbox, the sink, and the bounds (see {@link EventRelayOptions})
 * @returns the relay, not started: call `start()`, or `runOnce()` / `drain()`
 * @throws TypeError naming a bad option
 * @example
 * ```ts
 * const relay = eventRelay({ outbox: store.outbox, sink: webhookSink({ url, secret }) });
 * relay.start();
 * process.once('SIGTERM', () => void relay.stop());
 * ```
 */
export function eventRelay(options: EventRelayOptions): EventRelay {
  const config = relayConfig(options);
  const { outbox, holder, leaseTime } = config;
  let rounds: Promise<unknown> = Promise.resolve();
  let running = false;
  let stopping = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let leasedAt = 0;
  let leaseHeld = false;

  const report = (operation: string, error: unknown): void => {
    const text = shortText(error);
    publish('error', () => ({ operation, error: text }));
    config.logger?.warn(`plantstore events: the outbox's ${operation} failed: ${text}; retrying`);
  };
  // Between sends: renewed once a third of the lease has passed, so a long round keeps it.
  const goOn = async (): Promise<boolean> => {
    if (stopping || !leaseHeld) return false;
    if (Date.now() - leasedAt < leaseTime / 3) return true;
    return renew();
  };
  const renew = async (): Promise<boolean> => {
    const now = new Date();
    try {
      leaseHeld = await outbox.lease(holder, leaseTime, now);
    } catch (error) {
      report('lease', error);
      leaseHeld = false;
    }
    if (leaseHeld) leasedAt = now.getTime();
    return leaseHeld;
  };
  const round = async (): Promise<RelayRound> => {
    if (!(await renew())) return NOT_LEASED;
    let events;
    try {
      events = await outbox.due(config.batchSize, new Date());
    } catch (error) {
      report('due', error);
      return IDLE;
    }
    if (events.length === 0) return IDLE;
    const counts = await deliverBatch(config, events, { goOn, report });
    return { leased: true, due: events.length, ...counts };
  };
  // Rounds run one after the other, whoever asks; a bug in one is reported, never thrown.
  const runOnce = (): Promise<RelayRound> => {
    const next = rounds.then(round).catch((error: unknown) => {
      report('round', error);
      return IDLE;
    });
    rounds = next;
    return next;
  };
  // A loop belongs to one start(): after stop() and start() again, the old one ends.
  let loop = 0;
  const tick = async (own: number): Promise<void> => {
    timer = undefined;
    const result = await runOnce();
    if (stopping || !running || own !== loop) return;
    // A full batch means more may be waiting: go on at once; else wait for the next poll.
    const busy = result.leased && result.due >= config.batchSize;
    timer = setTimeout(() => void tick(own), busy ? 0 : config.pollInterval);
  };

  return {
    start() {
      if (running) return;
      running = true;
      stopping = false;
      loop += 1;
      const own = loop;
      timer = setTimeout(() => void tick(own), 0);
    },
    async stop() {
      stopping = true;
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await rounds;
      if (leaseHeld) {
        leaseHeld = false;
        try {
          await outbox.release(holder);
        } catch (error) {
          report('release', error);
        }
      }
      stopping = false;
    },
    runOnce,
    async drain() {
      let total = { ...IDLE };
      for (;;) {
        const result = await runOnce();
        total = {
          leased: result.leased,
          due: total.due + result.due,
          delivered: total.delivered + result.delivered,
          failed: total.failed + result.failed,
          dead: total.dead + result.dead,
        };
        // A round that delivered nothing (all failed, or the outbox could not record them) ends
        // it: the failed wait for their back-off, and a broken outbox cannot spin it.
        if (!result.leased || result.delivered === 0 || stopping) return total;
      }
    },
    dead: (limit = 100) => outbox.dead(limit),
    redrive: (ids) => outbox.redrive(ids),
  };
}
