import type { LoggedFailure } from './logged-failure';

/**
 * Where the service tells its host what the host must act on: a 5xx when no `onError` hook is set,
 * and, once, a route mounted where it cannot read bodies exactly. `console` fits, and so does any
 * logger with `warn` and `error` methods that take a message first (pino, winston, bunyan).
 */
export interface PlantLogger {
  warn(message: string): void;
  /**
   * A 5xx, or a hook that threw: `message` is the whole line; `failure` the same as fields, for a
   * structured logger. Neither holds the failure's other fields, its stack or its causes' (a
   * driver's statement and values): `onError` gets the failure itself.
   */
  error(message: string, failure: LoggedFailure): void;
}
