// What the replay store sends its Durable Object, and what the object answers, as JSON.

/** `POST /remember`: remember `key` until `expiresAt`, judged by the service's clock `now`. */
export interface RememberCall {
  readonly key: string;
  readonly expiresAt: number;
  readonly now: number;
}

/** The answer: `true` when the key was new (or expired) and is remembered now. */
export interface RememberAnswer {
  readonly remembered: boolean;
}

/** The URL the store's calls go to; a Durable Object stub needs one, and only its path is read. */
export const REMEMBER_URL = 'https://replay-store.invalid/remember';

/** `POST /ready`, the store's readiness probe: the object answers `{ ready: true }`. */
export const READY_URL = 'https://replay-store.invalid/ready';

/**
 * Whether a parsed body is a {@link RememberCall}.
 *
 * @param value - the parsed JSON
 * @returns true for a key of text and finite times
 */
export function isRememberCall(value: unknown): value is RememberCall {
  const call = value as Partial<RememberCall> | null;
  return (
    typeof call === 'object' &&
    call !== null &&
    typeof call.key === 'string' &&
    Number.isFinite(call.expiresAt) &&
    Number.isFinite(call.now)
  );
}
