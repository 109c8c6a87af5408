import { describeValue, type Factory, optionError } from '../options/check-options';

// One or more segments, each non-empty and free of what would end a path (`?`, `#`), stand for an
// OpenAPI template (`{`, `}`), or break a header or a log line (whitespace, controls, quotes).
// eslint-disable-next-line no-control-regex -- the controls are what it refuses
const BASE_PATH = /^(?:\/[^/?#{}\s"\\\u0000-\u001f\u007f]+)+$/u;

/**
 * The one rule for a base path, shared by the service and the OpenAPI document so both accept the
 * same prefixes: `''`, or segments such as `/v1` or `/api/v1`; trailing slashes are dropped.
 *
 * @param factory - the factory that was called, for the error message
 * @param value - the `basePath` option
 * @returns the prefix without trailing slashes (`''` for the root)
 * @throws TypeError for anything else
 * @example
 * ```ts
 * normaliseBasePath('Plantstore', '/api/'); // '/api'
 * ```
 */
export function normaliseBasePath(factory: Factory, value: unknown): string {
  if (value === undefined) return '';
  const trimmed = typeof value === 'string' ? value.replace(/\/+$/u, '') : undefined;
  if (trimmed === undefined || (trimmed !== '' && !BASE_PATH.test(trimmed))) {
    optionError(
      factory,
      'basePath',
      'must be "" or a path of non-empty segments such as "/api" (no "?", "#", "{", "}", quotes or whitespace)',
      typeof value === 'string' ? JSON.stringify(value.slice(0, 100)) : describeValue(value),
    );
  }
  return trimmed;
}
