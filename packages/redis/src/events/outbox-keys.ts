/** The keys of one bucket's outbox, all under the bucket's hash tag: one slot with its plants. */
export interface BucketKeys {
  /** The stream of pending events, in the order written. */
  readonly stream: string;
  /** Event id → stream entry id. */
  readonly index: string;
  /** Event id → the failed attempts, when the event is due again, the last error. */
  readonly tries: string;
  /** The dead events' ids, scored by their time. */
  readonly dead: string;
  /** Event id → the dead event itself. */
  readonly held: string;
}

/**
 * The outbox keys beside the plants of `tag` (`${prefix}{${bucket}}`). A plant's key ends in `:`
 * and digits; none of these does, so no tenant can name one.
 *
 * @example
 * ```ts
 * bucketKeys('plant:{3}').stream; // 'plant:{3}~events'
 * ```
 */
export function bucketKeys(tag: string): BucketKeys {
  const stream = `${tag}~events`;
  return {
    stream,
    index: `${stream}:ids`,
    tries: `${stream}:tries`,
    dead: `${stream}:dead`,
    held: `${stream}:held`,
  };
}

/**
 * The hash tag part of a plant's key, `${prefix}{${bucket}}`: the prefix holds no brace, so the
 * first `}` closes the tag.
 */
export function tagOfKey(plantKey: string): string {
  return plantKey.slice(0, plantKey.indexOf('}') + 1);
}
