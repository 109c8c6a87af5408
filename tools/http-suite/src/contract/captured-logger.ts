import type { LoggedFailure, PlantLogger } from '@plantstore/core';

/** A logger that keeps what it is told, for tests to read, and prints nothing. */
export interface CapturedLogger extends PlantLogger {
  /** Each warning, in order. */
  readonly warnings: readonly string[];
  /** Each error line with its failure's record, in order. */
  readonly errors: readonly { readonly message: string; readonly failure: LoggedFailure }[];
}

/**
 * Makes a logger for a host under test: what the service logs is kept, not printed.
 *
 * @returns an empty logger
 * @example
 * ```ts
 * const logger = capturedLogger();
 * const service = createPlantService({ store, auth, logger });
 * // … a request the store fails …
 * expect(logger.errors.map((line) => line.failure.code)).toEqual(['store_failed']);
 * ```
 */
export function capturedLogger(): CapturedLogger {
  const warnings: string[] = [];
  const errors: { message: string; failure: LoggedFailure }[] = [];
  return {
    warnings,
    errors,
    warn: (message) => void warnings.push(message),
    error: (message, failure) => void errors.push({ message, failure }),
  };
}
