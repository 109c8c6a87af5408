import type { PlantLogger, PlantServiceError } from '@plantstore/core';
import type { FastifyBaseLogger } from 'fastify';

/** A {@link PlantLogger} that writes to the Fastify app's own logger once the plugin is registered. */
export interface HostLogger extends PlantLogger {
  /** Points the logger at the app's `log`; until then, `console`. */
  use(log: FastifyBaseLogger): void;
  /** The logger of one request, for `PlantRequest.logger`: its lines carry the request's `reqId`. */
  of(log: FastifyBaseLogger): PlantLogger;
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

// One per request that the route answers: pino's argument order (fields, then message) for the core's.
class PinoLogger implements PlantLogger {
  constructor(private readonly log: FastifyBaseLogger) {}

  warn(message: string): void {
    this.log.warn(message);
  }

  error(message: string, error: PlantServiceError): void {
    this.log.error({ err: shown(error) }, message);
  }
}

/**
 * The service's default logger under Fastify: what the host must act on (a 5xx without `onError`,
 * a set-up warning) goes where the app's own logs go: a request's `request.log` (through
 * {@link HostLogger.of}), so the line carries its `reqId` beside the request's own lines, else
 * `app.log`.
 *
 * @returns the logger, pointed at `console` until {@link HostLogger.use} is called
 */
export function hostLogger(): HostLogger {
  let app: PlantLogger | undefined;
  return {
    use: (log) => {
      app = new PinoLogger(log);
    },
    of: (log) => new PinoLogger(log),
    warn: (message) => (app === undefined ? console.warn(message) : app.warn(message)),
    error: (message, error) =>
      app === undefined ? console.error(message, error) : app.error(message, error),
  };
}
