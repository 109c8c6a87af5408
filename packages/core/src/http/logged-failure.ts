import type { PlantServiceErrorCode } from '../errors/error-codes';
import type { PlantServiceError } from '../errors/plant-service-error';

/** One error of a failure's `cause` chain, as the default log keeps it. */
export interface LoggedCause {
  /** Its class: `DatabaseError`, `ConditionalCheckFailedException`, `TypeError`. */
  readonly name: string;
  /** The store's or driver's code, when it has one: a SQLSTATE (`42P01`), `ER_NO_SUCH_TABLE`, `ECONNREFUSED`. */
  readonly code?: string | number;
  /** Its message, on one line. */
  readonly message: string;
}

/**
 * What the service's default log keeps of a 5xx: the answer's status and code, the request's method
 * and path, and the class, code and message of each error of the cause chain. Nothing else of the
 * failure: a driver's error also carries the statement, its parameters and the row's values (`sql`,
 * `detail`, `where`, `parameters`), which hold the plant and the principal's subject; and no stack,
 * whose frames name the packages' sources. `onError` gets the whole failure.
 */
export interface LoggedFailure {
  readonly status: number;
  readonly code: PlantServiceErrorCode;
  /** The failure's own message, as the hooks see it: `The store failed.` */
  readonly message: string;
  readonly method: string;
  /** The path the client requested, without its query. */
  readonly path: string;
  /** The `cause` chain, outermost first; empty when the failure has no cause. */
  readonly causes: readonly LoggedCause[];
}

// Deep enough for a store's error around a driver's around a socket's, short enough for one line.
const MAX_CAUSES = 3;
// A message past this is cut: a log line stays a line, whatever a driver puts in its message.
const MAX_MESSAGE = 300;

/**
 * Keeps of a failure what the default log may show (see {@link LoggedFailure}).
 *
 * @param error - the failure the service answered with
 * @param request - the request's method and path
 * @returns the record, with nothing that refers to `error` or its causes
 * @example
 * ```ts
 * loggedFailure(error, { method: 'POST', path: '/api/plants' }).causes[0]?.code; // '42P01'
 * ```
 */
export function loggedFailure(
  error: PlantServiceError,
  request: { readonly method: string; readonly path: string },
): LoggedFailure {
  const causes: LoggedCause[] = [];
  for (let cause = error.cause; cause !== undefined && causes.length < MAX_CAUSES;) {
    causes.push(loggedCause(cause));
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return {
    status: error.status,
    code: error.code,
    message: error.message,
    method: request.method,
    path: request.path,
    causes,
  };
}

/**
 * The record as one line: `500 store_failed on POST /api/plants: The store failed. Caused by
 * DatabaseError [42P01]: relation "plants" does not exist`.
 *
 * @param failure - the record
 * @returns the line, without the `plantstore: ` every line of the service starts with
 */
export function failureLine(failure: LoggedFailure): string {
  const causes = failure.causes.map(
    ({ name, code, message }, index) =>
      `${index === 0 ? ' Caused by' : '; caused by'} ${name}${code === undefined ? '' : ` [${code}]`}${message === '' ? '' : `: ${message}`}`,
  );
  return `${failure.status} ${failure.code} on ${failure.method} ${failure.path}: ${failure.message}${causes.join('')}`;
}

function loggedCause(cause: unknown): LoggedCause {
  if (!(cause instanceof Error)) return { name: `a thrown ${typeof cause}`, message: '' };
  // A driver's class says more than its `name`: node-postgres's DatabaseError is named "error".
  const type = cause.constructor.name;
  const name = type !== '' && type !== 'Error' ? type : cause.name;
  const { code } = cause as { code?: unknown };
  const message = oneLine(cause.message);
  return typeof code === 'string' || typeof code === 'number'
    ? { name, code, message }
    : { name, message };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
}
