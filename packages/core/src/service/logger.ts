import type { PlantServiceErrorCode } from '../errors/error-codes';
import type { PlantServiceError } from '../errors/plant-service-error';
import { failureLine, loggedFailure } from '../http/logged-failure';
import type { PlantLogger } from '../http/plant-logger';
import { describeValue, type Factory, optionError } from '../options/check-options';

export type { LoggedCause, LoggedFailure } from '../http/logged-failure';
export type { PlantLogger } from '../http/plant-logger';

// The default: one line per report. The line is the record (see LoggedFailure), so console is given
// the line alone; handed the record too, it would print it a second time.
const CONSOLE: PlantLogger = {
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};

/**
 * Checks the `logger` option: `console` when absent, nothing when `false`.
 *
 * @param factory - the factory that was called
 * @param value - what the host passed
 * @returns the logger to report through, or `undefined` for none
 * @throws TypeError when it is neither `false` nor an object with `warn` and `error` functions
 */
export function loggerOption(factory: Factory, value: unknown): PlantLogger | undefined {
  if (value === undefined) return CONSOLE;
  if (value === false) return undefined;
  if (isLogger(value)) return value;
  return optionError(
    factory,
    'logger',
    'must be false or an object with warn and error functions',
    describeValue(value),
  );
}

function isLogger(value: unknown): value is PlantLogger {
  if (typeof value !== 'object' || value === null) return false;
  const { warn, error } = value as Record<string, unknown>;
  return typeof warn === 'function' && typeof error === 'function';
}

// An outage (the identity provider or the database down) fails every request alike: one line per
// reason code per window, with the count of those left out, keeps it visible without a stack trace
// per request flooding the host's logs.
const QUIET_MS = 10_000;

/**
 * The `onError` a service has when the host gave none: one line per 5xx with the failure's status,
 * code and message, the request's method and path, and each cause's class, code and message (see
 * {@link LoggedFailure}: never a statement's values, the claims, the token, the body or a stack);
 * of a run of failures with one reason code, the first in each 10 s, with the count of the others.
 *
 * @param logger - where the line goes
 * @param now - the clock, in ms
 * @returns the hook, its shape spelt out (`Hook` lives in service-options.ts, which imports this module)
 * @example
 * ```ts
 * // plantstore: 500 store_failed on POST /api/plants: The store failed. Caused by DatabaseError [42P01]: relation "plants" does not exist
 * // plantstore: 503 store_timeout on POST /api/plants: … (and 41 more store_timeout since the last line)
 * ```
 */
export function logFailures(
  logger: PlantLogger,
  now: () => number = Date.now,
): (error: PlantServiceError, context: { readonly method: string; readonly path: string }) => void {
  const quiet = new Map<string, { until: number; left: number }>();
  return (error, context) => {
    const at = now();
    const last = quiet.get(error.code);
    if (last !== undefined && at < last.until) {
      last.left += 1;
      return;
    }
    const more =
      last === undefined || last.left === 0
        ? ''
        : ` (and ${last.left} more ${error.code} since the last line)`;
    quiet.set(error.code, { until: at + QUIET_MS, left: 0 });
    const failure = loggedFailure(error, context);
    logger.error(`plantstore: ${failureLine(failure)}${more}`, failure);
  };
}

/**
 * The host's `onError`, guarded: what it throws or rejects with is logged, beside the failure it was
 * given, rather than dropped. A failing observer must not hide the failure it observed (a store's
 * outage, a bug), and no other hook is left to tell.
 *
 * @param onError - the host's hook
 * @param logger - where a failure of it goes
 * @returns the hook to run in its place
 * @example
 * ```ts
 * // plantstore: onError threw TypeError: x is undefined while reporting 500 store_failed on POST /api/plants: …
 * ```
 */
export function guardedOnError<Context extends { readonly method: string; readonly path: string }>(
  onError: (error: PlantServiceError, context: Context) => void | Promise<void>,
  logger: PlantLogger,
): (error: PlantServiceError, context: Context) => void {
  return (error, context) => {
    const failed = (cause: unknown): void => {
      const what = cause instanceof Error ? `${cause.name}: ${cause.message}` : typeof cause;
      const failure = loggedFailure(error, context);
      logger.error(
        `plantstore: onError threw ${what} while reporting ${failureLine(failure)}`,
        failure,
      );
    };
    // Called at once (within the request's logger scope); a throw and a rejection land alike.
    void new Promise<void>((resolve) => resolve(onError(error, context))).catch(failed);
  };
}

// What the host must change when the route was mounted where it cannot read bodies exactly: said to
// the server once, while each client gets an answer that does not describe the server's middleware.
const HOST_SETUP_FIXES = new Map<PlantServiceErrorCode, string>([
  [
    'body_parsed_by_host',
    "the host application's JSON body parser read a create request's body before the plants route, and a parsed number cannot show that the id was sent exactly, so every create with a numeric id is answered 500. Mount the route before the parser (NestJS: app.use the route before app.useBodyParser() and before init() or listen()), or let the parser keep the raw bytes for it (Express: express.json({ verify: plants.keepRawBody }); NestJS: NestFactory.create(AppModule, { rawBody: true }); Koa: a parser that keeps ctx.request.rawBody as bytes).",
  ],
  [
    'body_decoded_by_host',
    "the host application decoded a create request's body to text before the plants route (express.text(), a string rawBody), and lenient decoders write U+FFFD for bytes that are not UTF-8, so bodies holding U+FFFD are refused with 400 body_decoded_by_host. Mount the route before that parser, or keep the raw bytes for it (Express: express.text({ verify: plants.keepRawBody }); Koa: keep ctx.request.rawBody as bytes).",
  ],
]);

/**
 * Warns the host once per kind of set-up problem a refusal reveals, such as a body parser mounted
 * before the route; other refusals pass through unseen.
 *
 * @param logger - where the warning goes
 * @returns a function to call with each refusal
 */
export function hostSetupWarnings(logger: PlantLogger): (failure: PlantServiceError) => void {
  const warned = new Set<PlantServiceErrorCode>();
  return (failure) => {
    const fix = HOST_SETUP_FIXES.get(failure.code);
    if (fix === undefined || warned.has(failure.code)) return;
    warned.add(failure.code);
    logger.warn(`plantstore: ${fix}`);
  };
}

/** A logger that writes to one request's own logger while that request is answered. */
export interface ScopedLogger extends PlantLogger {
  /** Runs `report` with `logger` (when given) as where its lines go, then the service's again. */
  during(logger: PlantLogger | undefined, report: () => void): void;
}

/**
 * Wraps the service's logger so that what a request causes goes to the request's own logger when
 * its adapter gave one ({@link PlantRequest.logger}, Fastify's `request.log`). The refusal's hooks
 * run synchronously inside {@link ScopedLogger.during}, so no other request can interleave.
 *
 * @param base - the service's logger
 * @returns the logger
 * @example
 * ```ts
 * const logger = scopedLogger(console);
 * logger.during(requestLog, () => onError(failure, context)); // written to requestLog
 * ```
 */
export function scopedLogger(base: PlantLogger): ScopedLogger {
  let current = base;
  return {
    warn: (message) => current.warn(message),
    error: (message, failure) => current.error(message, failure),
    during(logger, report) {
      if (logger === undefined) {
        report();
        return;
      }
      const previous = current;
      current = logger;
      try {
        report();
      } finally {
        current = previous;
      }
    },
  };
}
