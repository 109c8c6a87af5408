import { AsyncLocalStorage } from 'node:async_hooks';
import type { PlantLogger, PlantServiceError } from '@plantstore/core';
import type { FastifyBaseLogger } from 'fastify';

/** A {@link PlantLogger} that writes to the Fastify app's own logger once the plugin is registered. */
export interface HostLogger extends PlantLogger {
  /** Points the logger at the app's `log`; until then, `console`. */
  use(log: FastifyBaseLogger): void;
  /** Runs one request's answer with its `request.log` as where the lines of that answer go. */
  during<T>(log: FastifyBaseLogger, answer: () => T): T;
}

/**
 * What pino's `err` shows of a failure: its cause when it has one (the database's own error, with
 * its stack), else the failure itself. The failure with its cause would read
 * `"The store failed.: connection refused"`, as pino joins the two messages; the line's `msg`
 * already names the failure and its code.
 *
 * @param error - what the service reports
 * @returns the object for pino's `err` serialiser
 */
function shown(error: PlantServiceError): unknown {
  return error.cause ?? error;
}

/**
 * The service's default logger under Fastify: what the host must act on (a 5xx without `onError`,
 * a set-up warning) goes where the app's own logs go: through `request.log` while a request is
 * answered, so the line carries its `reqId` beside the request's own lines, else `app.log`.
 *
 * @returns the logger, pointed at `console` until {@link HostLogger.use} is called
 */
export function hostLogger(): HostLogger {
  let appLog: FastifyBaseLogger | undefined;
  const requestLog = new AsyncLocalStorage<FastifyBaseLogger>();
  const current = (): FastifyBaseLogger | undefined => requestLog.getStore() ?? appLog;
  return {
    use: (log) => {
      appLog = log;
    },
    during: (log, answer) => requestLog.run(log, answer),
    warn: (message) => {
      const log = current();
      if (log === undefined) console.warn(message);
      else log.warn(message);
    },
    error: (message: string, error: PlantServiceError) => {
      const log = current();
      if (log === undefined) console.error(message, error);
      else log.error({ err: shown(error) }, message);
    },
  };
}
