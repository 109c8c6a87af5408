import type { Principal } from '../auth/principal';
import type { StoreContext } from '../plant/store';

const principal: Principal = { subject: 'conformance', scopes: [], claims: {} };

/**
 * The context the store conformance cases insert with: one principal, and a signal that never
 * fires unless the case passes its own.
 *
 * @param signal - the insert's signal
 * @returns the context
 */
export function conformanceContext(
  signal: AbortSignal = new AbortController().signal,
): StoreContext {
  return { principal, signal };
}
