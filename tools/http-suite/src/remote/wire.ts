import type {
  NewPlant,
  PlantRecord,
  PlantServiceErrorCode,
  StoredPlant,
  Principal,
  ResourceMetadataOptions,
} from '@plantstore/core';
import type { ContractAuth } from '../contract-setup';

// What crosses between the test process and a route running in another runtime, as JSON. Ids travel
// as decimal strings, so an int64 stays exact on the way.

/** The environment variable holding the bridge's address, `http://127.0.0.1:<port>`. */
export const BRIDGE_URL = 'PLANTSTORE_BRIDGE_URL';
/** The environment variable holding the {@link WireSettings}, as JSON. */
export const BRIDGE_SETTINGS = 'PLANTSTORE_BRIDGE_SETTINGS';

/** The hooks a bridged service forwards. */
export type HookName = 'onCreated' | 'onRejected' | 'onError';

/** How the route in the other process is built: everything of the options that is not a function. */
export interface WireSettings {
  readonly auth: ContractAuth;
  readonly limits: {
    readonly bodyLimit?: number;
    readonly bodyTimeout?: number;
    readonly storeTimeout?: number;
    readonly retryAfter?: number;
    readonly realm?: string;
    readonly strictRouting?: boolean;
    readonly caseSensitiveRouting?: boolean;
    readonly publicUrl?: string;
    readonly clientCertificateHeader?: string;
    readonly resourceMetadata?: boolean | ResourceMetadataOptions;
    /** The tenant claim, when the test keeps ids per tenant. */
    readonly tenant?: string;
  };
  /** The hooks the test set: only those are forwarded, so a missing hook stays missing. */
  readonly hooks: readonly HookName[];
}

export interface WirePlant {
  readonly id: string;
  readonly name: string;
  readonly tag?: string;
  // The record's tenant and audit fields, where the plant has them; createdAt as ISO 8601.
  readonly tenant?: string;
  readonly createdBy?: string;
  readonly clientId?: string;
  readonly createdAt?: string;
  readonly tokenId?: string;
}

export interface WireError {
  readonly status: number;
  readonly code: PlantServiceErrorCode;
  readonly message: string;
}

/** `POST /insert`. */
export interface WireInsert {
  readonly plant: WirePlant;
  readonly principal: Principal;
}

/** The answer to `POST /insert`: the store's result, or how it failed. */
export type WireInsertAnswer =
  | { readonly created: true }
  | { readonly created: false; readonly existing: WirePlant }
  | { readonly failed: WireError & { readonly unavailable: boolean } };

/** `POST /hook`. */
export interface WireHookCall {
  readonly hook: HookName;
  readonly plant?: WirePlant;
  readonly error?: WireError;
  readonly context: {
    readonly method: string;
    readonly path: string;
    readonly principal: Principal | undefined;
  };
}

/** `POST /event`: something the host program saw, such as a request's signal aborting. */
export interface WireEvent {
  readonly event: string;
}

/** A plant as it travels: the id as its decimal digits, the audit fields it has. */
export function toWirePlant(plant: NewPlant | StoredPlant): WirePlant {
  const { tenant, createdBy, clientId, createdAt, tokenId } = plant as StoredPlant;
  return {
    id: plant.id.toString(),
    name: plant.name,
    ...(plant.tag === undefined ? {} : { tag: plant.tag }),
    ...(typeof tenant === 'string' ? { tenant } : {}),
    ...(typeof createdBy === 'string' ? { createdBy } : {}),
    ...(typeof clientId === 'string' ? { clientId } : {}),
    ...(createdAt instanceof Date ? { createdAt: createdAt.toISOString() } : {}),
    ...(typeof tokenId === 'string' ? { tokenId } : {}),
  };
}

/** A plant back from the wire, its id a `bigint` again. */
export function fromWirePlant(plant: WirePlant): NewPlant {
  return {
    id: BigInt(plant.id),
    name: plant.name,
    ...(plant.tag === undefined ? {} : { tag: plant.tag }),
  };
}

/** A stored plant back from the wire, with its audit fields. */
export function fromWireStored(plant: WirePlant): StoredPlant {
  const { tenant, createdBy, clientId, createdAt, tokenId } = plant;
  return {
    ...fromWirePlant(plant),
    ...(tenant === undefined ? {} : { tenant }),
    ...(createdBy === undefined ? {} : { createdBy }),
    ...(clientId === undefined ? {} : { clientId }),
    ...(createdAt === undefined ? {} : { createdAt: new Date(createdAt) }),
    ...(tokenId === undefined ? {} : { tokenId }),
  };
}

/** The record a route in another runtime handed its store, back from the wire. */
export function fromWireRecord(plant: WirePlant): PlantRecord {
  return {
    ...fromWirePlant(plant),
    tenant: plant.tenant ?? '',
    createdBy: plant.createdBy,
    clientId: plant.clientId,
    createdAt: new Date(plant.createdAt ?? Date.now()),
    tokenId: plant.tokenId,
  };
}
