import type { PlantLogger, PlantServiceError } from '@plantstore/core';
import type { FastifyBaseLogger } from 'fastify';

/** A {@link PlantLogger} that writes to the Fastify app's own logger once the plugin is registered. */
export interface HostLogger extends PlantLogger {
  /** Points the logger at the app's `log`; until then, `console`. */
  use(log: FastifyBaseLogger): void;
}

/**
 * The service's default logger under Fastify: what the host must act on (a 5xx without `onError`,
 * a set-up warning) goes where the app's own logs go, with pino's `err` serialiser for the cause.
 *
 * @returns the logger, pointed at `console` until {@link HostLogger.use} is called
 */
export function hostLogger(): HostLogger {
  let log: FastifyBaseLogger | undefined;
  return {
    use: (appLog) => {
      log = appLog;
    },
    warn: (message) => (log === undefined ? console.warn(message) : log.warn(message)),
    error: (message: string, error: PlantServiceError) =>
      log === undefined ? console.error(message, error) : log.error({ err: error }, message),
  };
}
