import type { InternalServerErrorCode, ServiceUnavailableCode } from './error-codes';
import { PlantServiceError, type PlantServiceErrorOptions } from './plant-service-error';

/** 503: the store or the identity provider is unavailable; the client may retry after `retryAfter` s. */
export class ServiceUnavailableError extends PlantServiceError<ServiceUnavailableCode> {
  override readonly name = 'ServiceUnavailableError';
  readonly retryAfter: number;

  constructor(
    code: ServiceUnavailableCode,
    message: string,
    options?: PlantServiceErrorOptions & { readonly retryAfter?: number },
  ) {
    super(503, code, message, options);
    this.retryAfter = options?.retryAfter ?? 5;
  }

  override get headers(): Readonly<Record<string, string>> {
    return { 'retry-after': String(this.retryAfter) };
  }
}

/** 500: the store, the verifier or a hook failed unexpectedly. The client sees a generic message. */
export class InternalServerError extends PlantServiceError<InternalServerErrorCode> {
  override readonly name = 'InternalServerError';

  constructor(code: InternalServerErrorCode, message: string, options?: PlantServiceErrorOptions) {
    super(500, code, message, options);
  }
}
