import { PayloadTooLargeError, RequestTimeoutError } from '../errors/client-errors';
import type { WholeBody } from '../http/request';
import { bodyAborted } from './body-aborted';
import type { ReadLimits } from './read-body';

/**
 * Whether a body may be taken whole by the runtime's own buffered read: its head declares one
 * `Content-Length`, a plain number within the limit. The runtime's HTTP server frames the body by
 * that length (Bun, Deno, workerd and Node's parser all stop there), so the read cannot pass it.
 *
 * @param declared - the request's `Content-Length` values
 * @param limitBytes - the body limit
 * @returns whether `readWholeBody` may read it
 * @example
 * ```ts
 * fitsWhole(['60'], 16_384); // true
 * ```
 */
export function fitsWhole(declared: readonly string[] | undefined, limitBytes: number): boolean {
  if (declared?.length !== 1) return false;
  const length = Number(declared[0]);
  return Number.isInteger(length) && length > 0 && length <= limitBytes;
}

/**
 * Reads a Web body (a `Request`) with the runtime's buffered read, `arrayBuffer()`, which Bun, Deno
 * and workerd serve from the bytes they already hold, with no stream reader, chunk loop or timer of
 * its own: the caller has checked with {@link fitsWhole} that its declared length is within the
 * limit. The limit is checked again on the bytes, for a `Request` a program built itself.
 *
 * @param source - the body
 * @param limits - size and time limits
 * @returns the bytes
 * @throws {@link PayloadTooLargeError} 413, {@link RequestTimeoutError} 408, or
 *   `InvalidBodyError` `body_aborted` when the body fails (the client went away) or was read before
 * @example
 * ```ts
 * const bytes = await readWholeBody(request, { limitBytes: 16_384, timeoutMs: 10_000 });
 * ```
 */
export function readWholeBody(source: WholeBody, limits: ReadLimits): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const { signal } = limits;
    const settle = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      settle();
      reject(bodyAborted(signal?.reason));
    };
    // A timer of its own, not the service's deadline list: on workerd a timer belongs to the
    // request that set it, and the list's one timer would not fire for the next request's body.
    const timer = setTimeout(() => {
      settle();
      reject(new RequestTimeoutError(limits.timeoutMs));
    }, limits.timeoutMs);
    if (signal?.aborted === true) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    source.arrayBuffer().then(
      (buffer) => {
        settle();
        if (buffer.byteLength > limits.limitBytes)
          reject(new PayloadTooLargeError(limits.limitBytes));
        else resolve(new Uint8Array(buffer));
      },
      (error: unknown) => {
        settle();
        reject(bodyAborted(error));
      },
    );
  });
}
