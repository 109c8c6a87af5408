import type { TokenIssuer } from '@plantstore/core/testing';
import { startEventApp, type EventApp, type EventAppConfig } from './app-process';
import { startCreateLoop } from './create-loop';
import type { DeliveryLog } from './delivery-log';

/** One fault: what breaks, and how it is put right; resolves once it is repaired. */
export interface Fault {
  readonly name: string;
  inflict(): Promise<void>;
}

/** The app process of a scenario, replaced when a fault restarts it. */
export interface RunningApp {
  current: EventApp;
  readonly config: EventAppConfig;
}

/** What a crash scenario found: acknowledged creates, their events, duplicates, catch-up per fault. */
export interface CrashReport {
  /** Acknowledged creates with no event delivered: must be empty. */
  readonly lost: readonly string[];
  readonly acknowledged: number;
  /** The report, printed once. */
  readonly text: string;
}

export const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the app, runs creates from a client loop, inflicts each fault in turn with load before and
 * after it, then waits for every acknowledged create's event: measures the catch-up after each
 * repair (from the repair until every create acknowledged so far has its event) and counts
 * duplicates.
 *
 * @param title - the scenario, for the report
 * @param setup - the store and the sink of the app, and the token issuer it trusts
 * @param log - the sink's consumer
 * @param faults - the faults, given the running app
 * @returns the report
 */
export async function crashScenario(
  title: string,
  setup: Pick<EventAppConfig, 'store' | 'sink'> & { readonly issuer: TokenIssuer },
  log: DeliveryLog,
  faults: (app: RunningApp) => Fault[],
): Promise<CrashReport> {
  const { store, sink, issuer } = setup;
  const { jwksUri, audience } = issuer;
  const config: EventAppConfig = { store, sink, jwksUri, issuer: issuer.issuer, audience };
  const token = await issuer.sign({}, { expiresIn: '10m' });
  const app: RunningApp = { current: await startEventApp(config), config };
  const loop = startCreateLoop(() => app.current.url, token, 1_000_000_000_000n);
  const lines: string[] = [];
  try {
    await pause(700);
    for (const fault of faults(app)) {
      await fault.inflict();
      const caughtUp = log.until(new Set(loop.acknowledged), 30_000);
      await pause(700);
      const lag = await caughtUp;
      lines.push(
        `  ${fault.name}: the backlog delivered ${(lag / 1000).toFixed(2)} s after the repair`,
      );
    }
  } finally {
    await loop.stop();
  }
  await log.until(loop.acknowledged, 30_000).catch(() => undefined);
  await app.current.kill();
  const lost = [...loop.acknowledged].filter((plant) => !log.plants.has(plant));
  const text = [
    `${title}: ${loop.acknowledged.size} creates acknowledged, ${lost.length} of their events lost; ` +
      `${log.deliveries} deliveries, ${log.duplicates} duplicates; ${loop.unanswered} requests unanswered ` +
      `(${log.plants.size - loop.acknowledged.size + lost.length} of them committed: their events came too)`,
    ...lines,
  ].join('\n');
  return { lost, acknowledged: loop.acknowledged.size, text };
}

/**
 * The app's crash: SIGKILLed, then started again (a new relay takes the lease once the dead one's
 * lapses).
 *
 * @param app - the scenario's app
 * @returns the fault
 */
export function appKill(app: RunningApp): Fault {
  return {
    name: 'app SIGKILLed, restarted',
    async inflict() {
      await app.current.kill();
      app.current = await startEventApp(app.config);
    },
  };
}

/**
 * A server's crash: SIGKILLed, then started again half a second later.
 *
 * @param name - the server, for the report
 * @param server - its kill and start
 * @returns the fault
 */
export function serverKill(
  name: string,
  server: { kill(): Promise<void>; start(): Promise<void> },
): Fault {
  return {
    name: `${name} SIGKILLed, restarted`,
    async inflict() {
      await server.kill();
      await pause(500);
      await server.start();
    },
  };
}
