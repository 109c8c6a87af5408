import { InvalidBodyError } from '../errors/client-errors';

/**
 * The refusal of a body that could not be read to its end: the stream failed, or the client went away.
 *
 * @param cause - what the stream or the signal reported, kept for `onError` and logs
 * @returns a 400 `body_aborted`
 * @example
 * ```ts
 * stream.on('error', (error) => reject(bodyAborted(error)));
 * ```
 */
export function bodyAborted(cause?: unknown): InvalidBodyError {
  return new InvalidBodyError(
    'body_aborted',
    'The request body could not be read to its end.',
    cause === undefined ? undefined : { cause },
  );
}
