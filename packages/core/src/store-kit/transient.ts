/**
 * Node's and undici's codes (`err.code`) for a backend that could not be reached or dropped the
 * connection: the one list every store reads.
 */
export const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  // undici (fetch, the AWS SDK's fetch handler): the socket closed or failed under a request.
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

// A cause chain that loops on itself, or a huge AggregateError, must not hang the request.
const MOST_FAILURES = 16;

/**
 * Walks a failure and what lies below it: its `cause`, and the `errors` of an `AggregateError`
 * (Node wraps the refusals of every address it tried in one), breadth first, at most 16 failures,
 * and answers the first verdict `judge` gives. A getter that throws ends the walk with no verdict.
 *
 * @param error - what a driver threw
 * @param judge - a verdict on one failure (an object), or `undefined` to look further
 * @returns the first verdict, or `undefined`
 * @example
 * ```ts
 * const kind = findCause(error, ({ errno }) => (errno === 1205 ? 'timeout' : undefined));
 * ```
 */
export function findCause<Verdict>(
  error: unknown,
  judge: (failure: Readonly<Record<string, unknown>>) => Verdict | undefined,
): Verdict | undefined {
  const pending: unknown[] = [error];
  try {
    for (let seen = 0; seen < MOST_FAILURES && pending.length > 0; seen += 1) {
      const failure = pending.shift();
      if (typeof failure !== 'object' || failure === null) continue;
      const record = failure as Readonly<Record<string, unknown>>;
      const verdict = judge(record);
      if (verdict !== undefined) return verdict;
      const { cause, errors } = record;
      pending.push(cause, ...(Array.isArray(errors) ? (errors as unknown[]) : []));
    }
  } catch {
    // A thrown value whose getters throw is no failure a retry would mend.
  }
  return undefined;
}

/**
 * Whether one failure (not its causes) carries a network code of {@link NETWORK_CODES}.
 *
 * @param failure - one failure of a chain
 * @returns whether its `code` says the backend could not be reached
 * @example
 * ```ts
 * findCause(error, (failure) => isNetworkCode(failure) || undefined);
 * ```
 */
export function isNetworkCode(failure: Readonly<Record<string, unknown>>): boolean {
  const { code } = failure;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

/**
 * Whether a failure, or one below it, is a network failure of {@link NETWORK_CODES}.
 *
 * @param error - what a driver threw
 * @returns whether the backend could not be reached or dropped the connection
 * @example
 * ```ts
 * isNetworkFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })); // true
 * ```
 */
export function isNetworkFailure(error: unknown): boolean {
  return findCause(error, (failure) => (isNetworkCode(failure) ? true : undefined)) === true;
}
