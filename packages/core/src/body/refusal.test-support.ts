import { expect } from 'vitest';
import { InvalidBodyError } from '../errors/client-errors';

/**
 * Runs `fn`, expecting it to throw an {@link InvalidBodyError}, and returns that error: the body
 * tests assert its code, message and issues. Test support only; no product module imports it.
 *
 * @param fn - the call that must refuse
 * @returns the error it threw
 */
export function refusal(fn: () => unknown): InvalidBodyError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidBodyError);
    return error as InvalidBodyError;
  }
  throw new Error('expected an InvalidBodyError');
}
