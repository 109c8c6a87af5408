import type { Cancellation } from '../common/cancellation';
import type { StoreGate } from './store-gate';

/**
 * A replay store's one atomic attempt at a key, as it runs inside the gate: `cancelled` is the
 * gate's view of the context's signal. The context is generic because store-kit sits below auth/,
 * where `ReplayContext` is declared; any context with a signal fits.
 */
export type RememberStep<C extends { readonly signal: AbortSignal }> = (
  key: string,
  expiresAt: number,
  context: C,
  cancelled: Cancellation,
) => Promise<boolean>;

/**
 * A replay store's `remember`, run through its gate: refused once the store is closed, not started
 * once the signal fired, and its failures mapped as the gate maps them. Every shipped replay store
 * wires its step this one way.
 *
 * @param gate - the store's gate
 * @param step - the store's atomic attempt
 * @returns `remember` as `ReplayStore` declares it
 * @example
 * ```ts
 * const step: RememberStep<ReplayContext> = (key, expiresAt, { now }, cancelled) =>
 *   tryInsert(key, expiresAt, now, cancelled);
 * const replayStore: ReplayStore = { remember: gatedRemember(gate, step) };
 * ```
 */
export function gatedRemember<C extends { readonly signal: AbortSignal }>(
  gate: StoreGate,
  step: RememberStep<C>,
): (key: string, expiresAt: number, context: C) => Promise<boolean> {
  return (key, expiresAt, context) =>
    gate.call(context, (cancelled) => step(key, expiresAt, context, cancelled));
}
