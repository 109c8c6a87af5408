/**
 * What the client reads for a 5xx: a generic message, whatever the error's own says (internals go
 * to `onError`, never to the client). The answer and the OpenAPI examples both read it.
 *
 * @example
 * ```ts
 * PUBLIC_MESSAGES[503]; // 'The service is temporarily unavailable; retry later.'
 * ```
 */
export const PUBLIC_MESSAGES: Readonly<Record<500 | 503, string>> = {
  500: 'The plant could not be created because of an internal error.',
  503: 'The service is temporarily unavailable; retry later.',
};

/**
 * A guard's 500: it guards the host's other routes, where no plant is being created.
 *
 * @example
 * ```ts
 * errorAnswer(failure, undefined, false, GUARD_INTERNAL_MESSAGE);
 * ```
 */
export const GUARD_INTERNAL_MESSAGE =
  'The request could not be completed because of an internal error.';
