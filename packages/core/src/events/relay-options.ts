import type { PlantLogger } from '../http/plant-logger';
import {
  checkKnownOptions,
  describeValue,
  MAX_TIMER_MS,
  optionError,
  wholeNumber,
} from '../options/check-options';
import type { EventSink } from './event-sink';
import type { EventOutbox } from './outbox';
import type { RetryBackoff } from './retry-delay';

/** The relay's bounds, each with its default (every one optional in {@link EventRelayOptions}). */
export interface RelayTuning {
  /** Events read per round. Default 100. */
  readonly batchSize: number;
  /** Sends under way at once (events of one plant are always sent one after the other). Default 8. */
  readonly concurrency: number;
  /** Milliseconds a send may take before it is aborted and counted as failed. Default 10000. */
  readonly sendTimeout: number;
  /** Milliseconds before the second attempt; the wait doubles per failure. Default 1000. */
  readonly retryBase: number;
  /** The longest wait between attempts, in milliseconds. Default 300000 (5 minutes). */
  readonly retryCap: number;
  /** Attempts before an event is dead (listed by `dead()`, re-drivable). Default 10. */
  readonly maxAttempts: number;
  /** Milliseconds the lease lasts; renewed every round. Default 30000. */
  readonly leaseTime: number;
  /** Milliseconds between rounds when nothing was due, or another relay holds the lease. Default 1000. */
  readonly pollInterval: number;
  /** This relay's name in the lease. Default: a random UUID per relay. */
  readonly holder: string;
}

/** Options of {@link eventRelay}: the outbox, the sink, and any of the {@link RelayTuning} bounds. */
export interface EventRelayOptions extends Partial<RelayTuning> {
  /** The store's outbox: `store.outbox`. */
  readonly outbox: EventOutbox;
  /** Where events go: `webhookSink({…})`, a broker's sink, or your own {@link EventSink}. */
  readonly sink: EventSink;
  /** Where failures are logged (`warn`): the service's `logger`. Default `console`; `false` for none. */
  readonly logger?: Pick<PlantLogger, 'warn'> | false | undefined;
}

/** The relay's options, checked, with their defaults. */
export interface RelayConfig extends RelayTuning {
  readonly outbox: EventOutbox;
  readonly sink: EventSink;
  readonly backoff: RetryBackoff;
  readonly logger: Pick<PlantLogger, 'warn'> | undefined;
}

const FACTORY = 'eventRelay';
const KNOWN = new Set([
  ...['outbox', 'sink', 'batchSize', 'concurrency', 'sendTimeout', 'retryBase', 'retryCap'],
  ...['maxAttempts', 'leaseTime', 'pollInterval', 'holder', 'logger'],
]);
const OUTBOX_METHODS = ['lease', 'release', 'due', 'delivered', 'failed', 'dead', 'redrive'];

function hasMethods(value: unknown, names: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return names.every((name) => typeof record[name] === 'function');
}

/**
 * Checks {@link eventRelay}'s options once and applies the defaults.
 *
 * @param options - what the caller passed
 * @returns the checked options
 * @throws TypeError naming the first bad option
 * @example
 * ```ts
 * const config = relayConfig({ outbox: store.outbox, sink });
 * ```
 */
export function relayConfig(options: EventRelayOptions): RelayConfig {
  checkKnownOptions(FACTORY, options, KNOWN);
  const { outbox, sink, holder, logger } = options;
  if (!hasMethods(outbox, OUTBOX_METHODS)) {
    const hint = 'the outbox of a store that writes events (store.outbox)';
    optionError(FACTORY, 'outbox', `must be ${hint}`, describeValue(outbox));
  }
  if (!hasMethods(sink, ['send'])) {
    optionError(FACTORY, 'sink', 'must be an object with a send function', describeValue(sink));
  }
  if (holder !== undefined && (typeof holder !== 'string' || holder === '')) {
    optionError(FACTORY, 'holder', 'must be a non-empty string', describeValue(holder));
  }
  if (logger !== undefined && logger !== false && !hasMethods(logger, ['warn'])) {
    optionError(
      FACTORY,
      'logger',
      'must be false or an object with a warn function',
      describeValue(logger),
    );
  }
  const timer = { min: 1, max: MAX_TIMER_MS };
  const retryBase = wholeNumber(FACTORY, 'retryBase', options.retryBase, timer, 1_000);
  const capRange = { min: retryBase, max: MAX_TIMER_MS };
  const retryCap = wholeNumber(
    FACTORY,
    'retryCap',
    options.retryCap,
    capRange,
    Math.max(retryBase, 300_000),
  );
  return {
    outbox,
    sink,
    batchSize: wholeNumber(FACTORY, 'batchSize', options.batchSize, { min: 1, max: 10_000 }, 100),
    concurrency: wholeNumber(
      FACTORY,
      'concurrency',
      options.concurrency,
      { min: 1, max: 1_000 },
      8,
    ),
    sendTimeout: wholeNumber(FACTORY, 'sendTimeout', options.sendTimeout, timer, 10_000),
    retryBase,
    retryCap,
    backoff: { baseMs: retryBase, capMs: retryCap },
    maxAttempts: wholeNumber(
      FACTORY,
      'maxAttempts',
      options.maxAttempts,
      { min: 1, max: 1_000 },
      10,
    ),
    leaseTime: wholeNumber(FACTORY, 'leaseTime', options.leaseTime, timer, 30_000),
    pollInterval: wholeNumber(FACTORY, 'pollInterval', options.pollInterval, timer, 1_000),
    holder: holder ?? crypto.randomUUID(),
    logger: logger === false ? undefined : (logger ?? console),
  };
}
