import {
  InvalidBodyError,
  PayloadTooLargeError,
  RequestTimeoutError,
} from '../errors/client-errors';
import type { Deadline, DeadlineList } from '../common/deadline-list';
import type { BodySource, WholeBody } from '../http/request';
import { bodyAborted as aborted } from './body-aborted';

/** Limits of one body read. */
export interface ReadLimits {
  /** Most bytes accepted; one more answers 413 and reading stops there. */
  readonly limitBytes: number;
  /** Milliseconds the whole body may take to arrive; then 408. */
  readonly timeoutMs: number;
  /** Fires when the client goes away. */
  readonly signal?: AbortSignal | undefined;
  /** A service's body deadlines, so that a Node stream's time-out needs no timer of its own. */
  readonly deadlines?: DeadlineList | undefined;
}

/** The subset of a Node readable stream the fast path uses. */
interface NodeReadable {
  read(): Uint8Array | string | null;
  /** `IncomingMessage`: the parser has already received the whole body. */
  readonly complete?: boolean;
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  readonly readableEnded?: boolean;
}

const encoder = new TextEncoder();

/**
 * Reads a whole body within a size limit and a time-out, stopping as soon as the limit is passed.
 * A stream is paused, never destroyed, when reading stops early, so the answer can still be written.
 *
 * @param source - the body
 * @param limits - size and time limits
 * @returns the bytes, or the text when the body was handed over as text
 * @throws {@link PayloadTooLargeError} 413, {@link RequestTimeoutError} 408, or
 *   {@link InvalidBodyError} `body_aborted` when the stream fails or the client goes away
 */
export async function readBody(
  source: Exclude<BodySource, WholeBody>,
  limits: ReadLimits,
): Promise<Uint8Array | string> {
  if (typeof source === 'string') {
    // Each UTF-16 unit is at most 3 UTF-8 bytes, so short texts need no encoding to be measured.
    if (
      source.length * 3 > limits.limitBytes &&
      encoder.encode(source).length > limits.limitBytes
    ) {
      throw new PayloadTooLargeError(limits.limitBytes);
    }
    return source;
  }
  if (source instanceof Uint8Array) {
    if (source.length > limits.limitBytes) throw new PayloadTooLargeError(limits.limitBytes);
    return source;
  }
  if (isNodeReadable(source)) return readNodeStream(source, limits);
  return readIterable(
    source instanceof ReadableStream ? iterateWebStream(source) : source[Symbol.asyncIterator](),
    limits,
  );
}

function isNodeReadable(source: object): source is NodeReadable {
  const candidate = source as Partial<NodeReadable>;
  return (
    typeof candidate.on === 'function' &&
    typeof candidate.pause === 'function' &&
    typeof candidate.read === 'function'
  );
}

/** Collects chunks and enforces the limit; a single chunk is returned without a copy. */
class Chunks {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly limitBytes: number) {}

  add(chunk: Uint8Array | string): void {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    this.size += bytes.length;
    if (this.size > this.limitBytes) throw new PayloadTooLargeError(this.limitBytes);
    this.parts.push(bytes);
  }

  join(): Uint8Array {
    if (this.parts.length === 1) return this.parts[0] as Uint8Array;
    const all = new Uint8Array(this.size);
    let offset = 0;
    for (const part of this.parts) {
      all.set(part, offset);
      offset += part.length;
    }
    return all;
  }
}

function readNodeStream(stream: NodeReadable, limits: ReadLimits): Promise<Uint8Array> {
  if (stream.readableEnded === true) {
    return Promise.reject(aborted(new Error('the body stream was already consumed')));
  }
  // A small body usually arrives with the headers: it is all buffered already, and can be taken
  // at once, with no listeners and no timer.
  if (stream.complete === true) {
    const chunks = new Chunks(limits.limitBytes);
    try {
      for (let chunk = stream.read(); chunk !== null; chunk = stream.read()) chunks.add(chunk);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : aborted(error));
    }
    return Promise.resolve(chunks.join());
  }
  return new Promise((resolve, reject) => {
    const chunks = new Chunks(limits.limitBytes);
    const finish = (error: unknown, value?: Uint8Array): void => {
      if (deadline === undefined) clearTimeout(timer);
      else limits.deadlines?.remove(deadline);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.removeListener('close', onClose);
      limits.signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve(value as Uint8Array);
      else {
        stream.pause();
        reject(error instanceof Error ? error : aborted(error));
      }
    };
    const onData = (chunk: Uint8Array | string): void => {
      try {
        chunks.add(chunk);
      } catch (error) {
        finish(error);
      }
    };
    const onEnd = (): void => finish(undefined, chunks.join());
    const onError = (error: unknown): void => finish(aborted(error));
    // 'close' before 'end' means the client went away mid-body.
    const onClose = (): void => finish(aborted());
    const onAbort = (): void => finish(aborted(limits.signal?.reason));
    const onTimeout = (): void => finish(new RequestTimeoutError(limits.timeoutMs));
    let timer: ReturnType<typeof setTimeout> | undefined;
    let deadline: Deadline | undefined;
    if (limits.deadlines === undefined) timer = setTimeout(onTimeout, limits.timeoutMs);
    else {
      deadline = {
        expiresAt: performance.now() + limits.timeoutMs,
        expire: onTimeout,
        previous: undefined,
        next: undefined,
        listed: false,
      };
      limits.deadlines.add(deadline);
    }
    if (limits.signal?.aborted === true) return finish(aborted(limits.signal.reason));
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

async function* iterateWebStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

async function readIterable(
  iterator: AsyncIterator<Uint8Array | string>,
  limits: ReadLimits,
): Promise<Uint8Array> {
  const chunks = new Chunks(limits.limitBytes);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError(limits.timeoutMs)), limits.timeoutMs);
    onAbort = () => reject(aborted(limits.signal?.reason));
    if (limits.signal?.aborted === true) onAbort();
    else limits.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for (;;) {
      let step: IteratorResult<Uint8Array | string>;
      try {
        step = await Promise.race([iterator.next(), stop]);
      } catch (error) {
        throw error instanceof RequestTimeoutError || error instanceof InvalidBodyError
          ? error
          : aborted(error);
      }
      if (step.done === true) return chunks.join();
      chunks.add(step.value);
    }
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) limits.signal?.removeEventListener('abort', onAbort);
  }
}
