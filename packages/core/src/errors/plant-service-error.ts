import type { PlantServiceErrorCode } from './error-codes';

/** Options every Plantstore error accepts. */
export interface PlantServiceErrorOptions {
  /** The underlying failure: kept for `onError` and logs, never sent to the client. */
  readonly cause?: unknown;
}

const brand = Symbol.for('@plantstore/core/error');

/**
 * Base class of every error Plantstore answers with. `status` is the HTTP status, `code` the stable
 * reason, `expose` whether `message` may be shown to the client (true for 4xx), `headers` the headers
 * the answer needs (`WWW-Authenticate`, `Retry-After`). Express's finalhandler and Koa's `ctx.onerror`
 * honour all of these, so an error that escapes to the host is still answered sensibly.
 */
export abstract class PlantServiceError<
  Code extends PlantServiceErrorCode = PlantServiceErrorCode,
> extends Error {
  abstract override readonly name: string;
  readonly code: Code;
  readonly status: number;
  readonly expose: boolean;

  protected constructor(
    status: number,
    code: Code,
    message: string,
    options?: PlantServiceErrorOptions,
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.expose = status < 500;
    Object.defineProperty(this, brand, { value: true });
  }

  /** Alias of `status`, for frameworks that read `statusCode`. */
  get statusCode(): number {
    return this.status;
  }

  /** Headers the answer must carry, beyond the ones every answer of the route has. */
  get headers(): Readonly<Record<string, string>> {
    return {};
  }
}

/**
 * Tells a Plantstore error from anything else, also across two installed copies of the package
 * (where `instanceof` fails).
 *
 * @param value - anything caught
 * @returns whether `value` is a {@link PlantServiceError}
 * @example
 * ```ts
 * app.use((err, req, res, next) => isPlantServiceError(err) ? res.status(err.status).end() : next(err));
 * ```
 */
export function isPlantServiceError(value: unknown): value is PlantServiceError {
  return (
    value instanceof PlantServiceError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true)
  );
}
