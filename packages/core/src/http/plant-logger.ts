import type { PlantServiceError } from '../errors/plant-service-error';

/**
 * Where the service tells its host what the host must act on: a 5xx when no `onError` hook is set,
 * and, once, a route mounted where it cannot read bodies exactly. `console` fits, and so does any
 * logger with `warn` and `error` methods that take a message first (pino, winston, bunyan).
 */
export interface PlantLogger {
  warn(message: string): void;
  error(message: string, error: PlantServiceError): void;
}
