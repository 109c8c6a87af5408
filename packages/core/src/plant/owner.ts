import type { Principal } from '../auth/principal';
import type { StoredPlant } from './plant';
import { clientIdOf } from './plant-record';

/**
 * Decides whether `principal` is the owner of a plant already stored under the id it asks for: only
 * the owner's identical create is a replay (200); anyone else gets the 409 a conflict gets.
 */
export type OwnerCheck = (stored: StoredPlant, principal: Principal) => boolean;

/**
 * The default owner rule: the stored `createdBy` and `clientId` both equal the caller's (`sub`;
 * `client_id`, else `azp`), and at least one of them is present. A row kept before the owner was
 * stored has neither, so it never replays: its retry is answered 409, safely.
 *
 * @param stored - the plant the store reported
 * @param principal - the caller
 * @returns whether the caller created it
 * @example
 * ```ts
 * createPlantService({ store, auth, isOwner: (stored, p) => isSameOwner(stored, p) || isAdmin(p) });
 * ```
 */
export function isSameOwner(stored: StoredPlant, principal: Principal): boolean {
  // SQL stores hand back NULL for an empty column: both mean "none kept".
  const createdBy = stored.createdBy ?? undefined;
  const clientId = stored.clientId ?? undefined;
  return (
    (createdBy !== undefined || clientId !== undefined) &&
    createdBy === principal.subject &&
    clientId === clientIdOf(principal)
  );
}
