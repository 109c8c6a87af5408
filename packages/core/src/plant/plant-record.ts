import type { Principal } from '../auth/principal';
import type { NewPlant, PlantRecord } from './plant';

/**
 * The client a token was issued to: `client_id` (RFC 9068, RFC 8693), else `azp` (OpenID Connect,
 * Entra ID v2, Keycloak), when it is a string.
 *
 * @param principal - the verified caller
 * @returns the client id, or `undefined`
 * @example
 * ```ts
 * clientIdOf({ subject: 'u1', scopes: [], claims: { azp: 'app' } }); // 'app'
 * ```
 */
export function clientIdOf(principal: Principal): string | undefined {
  const { client_id: clientId, azp } = principal.claims;
  if (typeof clientId === 'string') return clientId;
  return typeof azp === 'string' ? azp : undefined;
}

/**
 * What the store is handed: the validated plant, its tenant, and who created it when.
 *
 * @param plant - the validated plant
 * @param principal - the verified caller
 * @param tenant - the caller's tenant, `''` when tenants are off
 * @param createdAt - the core's clock at the create
 * @returns the record, with every field present (`undefined` where the token has nothing)
 * @example
 * ```ts
 * const record = plantRecord(plant, principal, '', new Date());
 * ```
 */
export function plantRecord(
  plant: NewPlant,
  principal: Principal,
  tenant: string,
  createdAt: Date,
): PlantRecord {
  const { jti } = principal.claims;
  const record: PlantRecord = {
    id: plant.id,
    name: plant.name,
    ...(plant.tag === undefined ? {} : { tag: plant.tag }),
    tenant,
    createdBy: principal.subject,
    clientId: clientIdOf(principal),
    createdAt,
    tokenId: typeof jti === 'string' ? jti : undefined,
  };
  // Like the parsed plant, nothing of Object.prototype may pass for a field.
  return Object.setPrototypeOf(record, null) as PlantRecord;
}
