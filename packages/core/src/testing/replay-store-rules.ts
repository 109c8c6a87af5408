/**
 * The rules of the replay store suite, each said once as the failure message of the assertions
 * that enforce it: a store's author reads what to do, not only which value differed.
 */

export const NEW = 'remember must resolve true for a key it does not hold';
export const SEEN =
  'remember must resolve false for a key it holds whose expiresAt is after context.now (a replay)';
export const EXPIRED =
  'a key whose expiresAt is not after context.now has expired: remember must resolve true and hold ' +
  "it again until its new expiresAt; judge expiry by context.now alone, never the backend's clock";
export const APART =
  'keys are compared byte for byte: remember must treat every other string as another key';
export const ONCE =
  'of concurrent calls with one key, exactly one may resolve true: check and set in one atomic ' +
  'step (a Lua script, INSERT … ON CONFLICT), never a read then a write';
export const ABORTED_BEFORE =
  'remember must reject, and remember nothing, when context.signal has already fired: call ' +
  'context.signal.throwIfAborted() (or check cancellation(context).aborted) before touching the backend';
export const PEERS =
  'two stores on one backend must share their keys, as every instance of the service does';
