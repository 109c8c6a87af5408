import type { Authenticator, VerifyToken } from '../auth/authenticator';
import { DEFAULT_REALM, type PlantStoreError } from '../errors/plant-store-error';
import type { NewPlant } from '../plant/plant';
import type { Principal } from '../auth/principal';
import type { PlantStore } from '../plant/store';

/** What the hooks are told about the request. */
export interface HookContext {
  readonly method: string;
  readonly path: string;
  /** Who made the request, once the token was verified. */
  readonly principal: Principal | undefined;
}

/** A hook; a returned promise is not awaited, and a failure never changes the answer. */
export type Hook<T> = (value: T, context: HookContext) => void | Promise<void>;

/** Options of {@link createPlantService}. */
export interface PlantServiceOptions {
  /** Where plants are kept: `memoryStore()`, `postgresStore(…)` or your own {@link PlantStore}. */
  readonly store: PlantStore;
  /** How bearer tokens are checked: `jwtBearer({…})` or your own verifier function. Required. */
  readonly auth: Authenticator | VerifyToken;
  /** A path prefix the route lives under, for the entries that see whole paths (fetch, node, Koa). Default `''`. */
  readonly basePath?: string | undefined;
  /** Largest body accepted, in bytes. Default 16384 (16 KiB). */
  readonly bodyLimit?: number | undefined;
  /** Milliseconds the body may take to arrive. Default 10000. */
  readonly bodyTimeout?: number | undefined;
  /** Milliseconds the store may take before the client is answered 503. Default 5000. */
  readonly storeTimeout?: number | undefined;
  /** Seconds a client is told to wait (`Retry-After`) when the store is unavailable. Default 5. */
  readonly retryAfter?: number | undefined;
  /** The realm named in `WWW-Authenticate`. Default `'plantstore'`. */
  readonly realm?: string | undefined;
  /** When true, `/plants/` is not `/plants` (Express's `strict routing`). Default false. */
  readonly strictRouting?: boolean | undefined;
  /** When true, `/Plants` is not `/plants` (Express's `case sensitive routing`). Default false. */
  readonly caseSensitiveRouting?: boolean | undefined;
  /** Called after a plant is stored, not on a replay. */
  readonly onCreated?: Hook<NewPlant> | undefined;
  /** Called for every request refused or failed, with its stable reason in `error.code`. */
  readonly onRejected?: Hook<PlantStoreError> | undefined;
  /** Called for every 5xx, with the underlying failure in `error.cause`, and when a hook throws. */
  readonly onError?: Hook<PlantStoreError> | undefined;
}

/** The options with every default applied, checked once. */
export interface ResolvedOptions {
  readonly store: PlantStore;
  readonly auth: Authenticator | VerifyToken;
  readonly routePath: string;
  readonly bodyLimit: number;
  readonly bodyTimeout: number;
  readonly storeTimeout: number;
  readonly retryAfter: number;
  readonly realm: string;
  readonly strictRouting: boolean;
  readonly caseSensitiveRouting: boolean;
  readonly onCreated: Hook<NewPlant> | undefined;
  readonly onRejected: Hook<PlantStoreError> | undefined;
  readonly onError: Hook<PlantStoreError> | undefined;
}

const KNOWN = new Set([
  'store',
  'auth',
  'basePath',
  'bodyLimit',
  'bodyTimeout',
  'storeTimeout',
  'retryAfter',
  'realm',
  'strictRouting',
  'caseSensitiveRouting',
  'onCreated',
  'onRejected',
  'onError',
]);

/** Names the type of a received option value without printing it (it may be a secret). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function fail(option: string, expected: string, value: unknown): never {
  throw new TypeError(
    `Plantstore: option "${option}" must be ${expected}; received ${describeType(value)}.`,
  );
}

function positiveInteger(option: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max) {
    fail(option, `a whole number from 1 to ${max}`, value);
  }
  return value;
}

function optionalFunction<T>(option: string, value: unknown): T | undefined {
  if (value !== undefined && typeof value !== 'function') fail(option, 'a function', value);
  return value as T | undefined;
}

function optionalBoolean(option: string, value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean') fail(option, 'a boolean', value);
  return value === true;
}

function normaliseBasePath(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value !== 'string' || (value !== '' && !/^\/[^?#\s]*$/.test(value))) {
    fail('basePath', 'a path starting with "/" (or "")', value);
  }
  return value.replace(/\/+$/, '');
}

/**
 * Checks the options once, when the service is created, and applies the defaults.
 *
 * @param options - what the host passed
 * @returns the resolved options
 * @throws TypeError naming the first bad option
 */
export function resolveOptions(options: PlantServiceOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) fail('options', 'an object', options);
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) throw new TypeError(`Plantstore: unknown option "${key}".`);
  }
  const { store, auth } = options as Partial<PlantServiceOptions>;
  if (typeof store !== 'object' || store === null || typeof store.insert !== 'function') {
    fail('store', 'a PlantStore (an object with an insert function)', store);
  }
  if (
    typeof auth !== 'function' &&
    (typeof auth !== 'object' || auth === null || typeof auth.verify !== 'function')
  ) {
    fail('auth', 'jwtBearer({...}) or a verifier function (there is no mode without auth)', auth);
  }
  const realm = options.realm ?? DEFAULT_REALM;
  if (typeof realm !== 'string' || !/^[\x20-\x7e]+$/.test(realm) || /["\\]/.test(realm)) {
    fail('realm', 'printable ASCII without quotes or backslashes', realm);
  }
  return {
    store,
    auth,
    routePath: `${normaliseBasePath(options.basePath)}/plants`,
    bodyLimit: positiveInteger('bodyLimit', options.bodyLimit, 16_384, 1024 ** 3),
    bodyTimeout: positiveInteger('bodyTimeout', options.bodyTimeout, 10_000, 2 ** 31 - 1),
    storeTimeout: positiveInteger('storeTimeout', options.storeTimeout, 5_000, 2 ** 31 - 1),
    retryAfter: positiveInteger('retryAfter', options.retryAfter, 5, 86_400),
    realm,
    strictRouting: optionalBoolean('strictRouting', options.strictRouting),
    caseSensitiveRouting: optionalBoolean('caseSensitiveRouting', options.caseSensitiveRouting),
    onCreated: optionalFunction('onCreated', options.onCreated),
    onRejected: optionalFunction('onRejected', options.onRejected),
    onError: optionalFunction('onError', options.onError),
  };
}
