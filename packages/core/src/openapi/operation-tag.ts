import { describeValue, type Factory, optionError } from '../options/check-options';

/** The tag the route's operation is listed under unless the host names another. */
export const DEFAULT_TAG = 'plants';

/**
 * Reads the `tag` option: the name Swagger UI and other viewers group the route's operation under.
 *
 * @param factory - the function that was called, for the message
 * @param tag - what the host passed
 * @returns the tag, `plants` when absent
 * @throws TypeError for anything but a non-empty string
 * @example
 * ```ts
 * operationTag('addPlantRoute', 'garden'); // 'garden'
 * ```
 */
export function operationTag(factory: Factory, tag: unknown): string {
  if (tag === undefined) return DEFAULT_TAG;
  if (typeof tag !== 'string' || tag.trim() === '') {
    optionError(factory, 'tag', 'must be a non-empty string', describeValue(tag));
  }
  return tag;
}
