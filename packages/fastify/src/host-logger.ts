import type { LoggedFailure, PlantLogger } from '@plantstore/core';
import type { FastifyBaseLogger } from 'fastify';

/** A {@link PlantLogger} that writes to the Fastify app's own logger once the plugin is registered. */
export interface HostLogger extends PlantLogger {
  /** Points the logger at the app's `log`; until then, `console`. */
  use(log: FastifyBaseLogger): void;
  /** The logger of one request, for `PlantRequest.logger`: its lines carry the request's `reqId`. */
  of(log: FastifyBaseLogger): PlantLogger;
}

// One per request that the route answers: pino's argument order (fields, then message) for the core's.
// The failure's fields go under `plantstore`, so they cannot clash with the app's own (`code`).
class PinoLogger implements PlantLogger {
  constructor(private readonly log: FastifyBaseLogger) {}

  warn(message: string): void {
    this.log.warn(message);
  }

  error(message: string, failure: LoggedFailure): void {
    this.log.error({ plantstore: failure }, message);
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
    error: (message, failure) =>
      app === undefined ? console.error(message) : app.error(message, failure),
  };
}
