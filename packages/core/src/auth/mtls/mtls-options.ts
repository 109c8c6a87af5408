import {
  checkKnownOptions,
  describeValue,
  optionalBoolean,
  optionError,
} from '../../options/check-options';

/** Options of certificate-bound tokens (RFC 8705): `jwtBearer({ …, mtls: { … } })`. */
export interface MtlsOptions {
  /**
   * Refuse tokens that are not bound to a client certificate (401 `mtls_required`), as FAPI 2.0
   * asks of a resource server whose clients all use mutual TLS. Default false.
   */
  readonly required?: boolean | undefined;
}

/** Checked `mtls` options. */
export interface MtlsConfig {
  readonly required: boolean;
}

const KNOWN = new Set(['required']);

/**
 * Checks the `mtls` option of `jwtBearer` once, at start-up.
 *
 * @param value - the option; `undefined` or `false` leaves certificate binding unchecked
 * @returns the checked options, or `undefined` when off
 * @throws TypeError naming the option
 * @example
 * ```ts
 * resolveMtlsOptions({ required: true })?.required; // true
 * ```
 */
export function resolveMtlsOptions(value: unknown): MtlsConfig | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return Object.freeze({ required: false });
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    checkKnownOptions('jwtBearer', value, KNOWN, 'mtls.');
    const { required } = value as MtlsOptions;
    return Object.freeze({ required: optionalBoolean('jwtBearer', 'mtls.required', required) });
  }
  return optionError(
    'jwtBearer',
    'mtls',
    'must be true, false or { required }',
    describeValue(value),
  );
}
