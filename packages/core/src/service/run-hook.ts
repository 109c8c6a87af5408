import { InternalServerError } from '../errors/server-errors';
import { type PlantServiceError } from '../errors/plant-service-error';
import type { Hook, HookContext } from './service-options';

/**
 * Runs an observer hook without letting it touch the answer: it is not awaited, and what it throws or
 * rejects with goes to `onError` (a failing `onError` itself is not reported to itself: the host's
 * is wrapped by `guardedOnError`, which logs it).
 *
 * @param hook - the hook, if the host gave one
 * @param value - what the hook observes
 * @param context - the request context
 * @param onError - where a failure of the hook goes
 */
export function runHook<T>(
  hook: Hook<T> | undefined,
  value: T,
  context: HookContext,
  onError: Hook<PlantServiceError> | undefined,
): void {
  if (hook === undefined) return;
  const report = (cause: unknown): void => {
    if (hook === onError) return;
    runHook(
      onError,
      new InternalServerError('hook_failed', 'A hook threw.', { cause }),
      context,
      undefined,
    );
  };
  try {
    const result = hook(value, context);
    if (result instanceof Promise) result.catch(report);
  } catch (cause) {
    report(cause);
  }
}
