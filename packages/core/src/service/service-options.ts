import type { AcceptedCredentials, Authenticator } from '../auth/authenticator';
import { verifierOf, type VerifyCredentials } from '../auth/authenticate';
import {
  createResourceMetadata,
  type ResourceMetadataEndpoint,
  type ResourceMetadataOptions,
} from './resource-metadata';
import { type ChallengeContext, DEFAULT_REALM } from '../errors/challenges';
import { publicUrlOption } from '../http/public-url';
import { normaliseBasePath } from '../http/base-path';
import {
  checkKnownOptions,
  describeValue,
  MAX_TIMER_MS,
  optionalBoolean,
  optionalFunction,
  optionError,
  quotableText,
  RETRY_AFTER_RANGE,
  wholeNumber,
} from '../options/check-options';
import { type PlantServiceError } from '../errors/plant-service-error';
import type { NewPlant } from '../plant/plant';
import type { Principal } from '../auth/principal';
import type { PlantStore } from '../plant/store';
import { isSameOwner, type OwnerCheck } from '../plant/owner';
import { type TenantOf, type TenantOption, tenantOption } from '../plant/tenant';
import {
  logFailures,
  guardedOnError,
  loggerOption,
  type PlantLogger,
  type ScopedLogger,
  scopedLogger,
} from './logger';
import { isTokenChar } from '../auth/read-credentials';
import { requireNodeCrypto } from '../common/node-builtin';
import { STORE_TIMEOUT_MS } from '../store-kit/store-timeout';
import { eventsOption, type EventsOptions } from '../events/events-option';
import type { PlantCreatedEvent } from '../events/cloud-event';

/** What the hooks are told about the request. */
export interface HookContext {
  readonly method: string;
  /**
   * The path the client requested, as it reached the host application: the mount point included
   * and the query string left out, the same under every adapter (`/api/plants` for a route mounted
   * at `/api`, from Express's `req.originalUrl`, Koa's `ctx.originalUrl`, Fastify's
   * `request.originalUrl`, the fetch entry's URL). Not decoded: as the client sent it.
   */
  readonly path: string;
  /**
   * Who made the request, once the token was verified: also on a refusal that came after (403
   * `scope_insufficient`, a DPoP proof refused, any body or store failure); `undefined` when the
   * request was refused before its token was verified.
   */
  readonly principal: Principal | undefined;
}

/** A hook; a returned promise is not awaited, and a failure never changes the answer. */
export type Hook<T> = (value: T, context: HookContext) => void | Promise<void>;

/** Options of {@link createPlantService}. */
export interface PlantServiceOptions {
  /** Where plants are kept: `memoryStore()`, `postgresStore(…)` or your own {@link PlantStore}. */
  readonly store: PlantStore;
  /** How bearer tokens are checked: `jwtBearer({…})` or an {@link Authenticator} of your own. Required. */
  readonly auth: Authenticator;
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
  /**
   * The URL clients reach the host application's root at, such as `https://api.example.com`: with a
   * path prefix when a proxy strips one before the host sees the request. Required with DPoP: every
   * proof names the URL it was made for (`htu`), and it is compared with this URL and the request's
   * path, never with the `Host` or `X-Forwarded-*` headers a client controls.
   */
  readonly publicUrl?: string | undefined;
  /**
   * The lower-case name of the header in which a trusted TLS-terminating proxy forwards the client's
   * certificate (RFC 8705 certificate-bound tokens): `'client-cert'` for RFC 9440 (`:base64-of-DER:`),
   * or the header you set from nginx's `$ssl_client_escaped_cert` (URL-encoded PEM). Set it only
   * behind a proxy that overwrites that header on every request: any client can send it. When set, it
   * is the only source of the certificate (the connection's is the proxy's own); when unset, the
   * header is never read and the TLS connection is the source. Other forms (Envoy's XFCC) and a
   * header sent twice count as no certificate. The fetch entry has no connection: this is its only
   * source. Default: unset.
   */
  readonly clientCertificateHeader?: string | undefined;
  /**
   * Serve RFC 9728 protected-resource metadata at `/.well-known/oauth-protected-resource` (and the
   * form suffixed with the resource's path), and name it as `resource_metadata` in every challenge.
   * `true` for the defaults (see {@link ResourceMetadataOptions}).
   */
  readonly resourceMetadata?: boolean | ResourceMetadataOptions | undefined;
  /** When true, `/plants/` is not `/plants` (Express's `strict routing`). Default false. */
  readonly strictRouting?: boolean | undefined;
  /** When true, `/Plants` is not `/plants` (Express's `case sensitive routing`). Default false. */
  readonly caseSensitiveRouting?: boolean | undefined;
  /**
   * Keep ids per tenant: a claim name (`'tid'`, `'org_id'`) or a function of the verified principal
   * that returns the tenant. The key becomes `(tenant, id)` on every store, so the same id in two
   * tenants is two plants. A token without a tenant is answered 401 `invalid_token`
   * (`tenant_missing`), one whose tenant is not 1–128 printable ASCII characters without spaces or
   * braces 401 (`tenant_invalid`). Default: off, one id space (tenant `''`).
   */
  readonly tenant?: TenantOption | undefined;
  /**
   * Whether a caller owns a plant stored under the id it creates again: only the owner's identical
   * create is a replay (200); anyone else gets the 409 of a conflict. Default {@link isSameOwner}:
   * the same `sub` and the same client (`client_id`, else `azp`), at least one of them kept.
   */
  readonly isOwner?: OwnerCheck | undefined;
  /**
   * Write a `plant.created` CloudEvent with each plant created, in the same transaction, for the
   * relay to deliver (docs/guides/events.md). The store must have an `outbox`. Default: off.
   */
  readonly events?: boolean | EventsOptions | undefined;
  /** Called after a plant is stored, not on a replay. */
  readonly onCreated?: Hook<NewPlant> | undefined;
  /** Called for every request refused or failed, with its stable reason in `error.code`. */
  readonly onRejected?: Hook<PlantServiceError> | undefined;
  /**
   * Called for every 5xx, with the underlying failure in `error.cause`, and when a hook throws.
   * Without it, each of these is logged through `logger`.
   */
  readonly onError?: Hook<PlantServiceError> | undefined;
  /**
   * Where the service reports what the host must act on: every 5xx when `onError` is not set, and
   * once, a body parser mounted where the route cannot read bodies exactly. Default `console`;
   * `false` for nothing.
   */
  readonly logger?: PlantLogger | false | undefined;
}

/** The options with every default applied, checked once. */
export interface ResolvedOptions {
  readonly store: PlantStore;
  readonly auth: Authenticator;
  /** The route's verification of one token, made from `auth` once. */
  readonly verify: VerifyCredentials;
  readonly routePath: string;
  readonly bodyLimit: number;
  readonly bodyTimeout: number;
  readonly storeTimeout: number;
  readonly retryAfter: number;
  readonly realm: string;
  readonly publicUrl: string | undefined;
  /** The trusted proxy's client-certificate header, lower-case; `undefined`: the TLS connection. */
  readonly clientCertificateHeader: string | undefined;
  /** What the auth accepts; Bearer tokens only for a verifier that does not say. */
  readonly accepts: AcceptedCredentials | undefined;
  readonly resourceMetadata: ResourceMetadataEndpoint | undefined;
  /** The challenge offered to a request, by the scheme it used. */
  readonly challenges: { readonly Bearer: ChallengeContext; readonly DPoP: ChallengeContext };
  readonly strictRouting: boolean;
  readonly caseSensitiveRouting: boolean;
  /** The caller's tenant, `undefined` when tenants are off. */
  readonly tenantOf: TenantOf | undefined;
  readonly isOwner: OwnerCheck;
  /** Builds each create's event, when the `events` option is on. */
  readonly eventOf: PlantCreatedEvent | undefined;
  readonly onCreated: Hook<NewPlant> | undefined;
  readonly onRejected: Hook<PlantServiceError> | undefined;
  /** The host's `onError`, or the default that logs each 5xx; `undefined` only with `logger: false`. */
  readonly onError: Hook<PlantServiceError> | undefined;
  readonly logger: ScopedLogger | undefined;
}

const KNOWN = new Set([
  ...['store', 'auth', 'basePath', 'bodyLimit', 'bodyTimeout', 'storeTimeout', 'retryAfter'],
  ...['realm', 'strictRouting', 'caseSensitiveRouting', 'onCreated', 'onRejected', 'onError'],
  ...['publicUrl', 'resourceMetadata', 'logger', 'clientCertificateHeader', 'tenant', 'isOwner'],
  'events',
]);
const FACTORY = 'Plantstore';
function fail(option: string, expected: string, value: unknown): never {
  return optionError(FACTORY, option, `must be ${expected}`, describeValue(value));
}

function certificateHeaderOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  // RFC 9110 §5.1: a field name is a token.
  const isFieldName = (name: string) =>
    name.length > 0 && [...name].every((char) => isTokenChar(char.charCodeAt(0)));
  if (typeof value !== 'string' || !isFieldName(value)) {
    fail('clientCertificateHeader', "a header name such as 'client-cert'", value);
  }
  // A certificate from the header must parse as X.509, which only node:crypto does here.
  requireNodeCrypto(`${FACTORY}: option "clientCertificateHeader"`, 'Node.js, Bun or Deno');
  return value.toLowerCase();
}

/**
 * Checks the options once, when the service is created, and applies the defaults.
 *
 * @param options - what the host passed
 * @returns the resolved options
 * @throws TypeError naming the first bad option
 */
export function resolveOptions(options: PlantServiceOptions): ResolvedOptions {
  checkKnownOptions(FACTORY, options, KNOWN);
  const { store, auth } = options as Partial<PlantServiceOptions>;
  if (typeof store !== 'object' || store === null || typeof store.insert !== 'function') {
    fail('store', 'a PlantStore (an object with an insert function)', store);
  }
  if (typeof auth === 'function') {
    fail('auth', 'an object with a verify function: write { verify: yourFunction }', auth);
  }
  if (typeof auth !== 'object' || auth === null || typeof auth.verify !== 'function') {
    fail('auth', 'jwtBearer({...}) or { verify } (there is no mode without auth)', auth);
  }
  const timer = { min: 1, max: MAX_TIMER_MS };
  const { accepts } = auth;
  const publicUrl =
    options.publicUrl === undefined
      ? undefined
      : publicUrlOption(FACTORY, 'publicUrl', options.publicUrl);
  if (accepts?.dpop !== undefined && publicUrl === undefined) {
    optionError(
      FACTORY,
      'publicUrl',
      'is required when the auth accepts DPoP (proofs name the URL they were made for)',
      'nothing',
    );
  }
  const chosen = loggerOption(FACTORY, options.logger);
  const logger = chosen === undefined ? undefined : scopedLogger(chosen);
  const onError = optionalFunction<Hook<PlantServiceError>>(FACTORY, 'onError', options.onError);
  const realm = quotableText(FACTORY, 'realm', options.realm ?? DEFAULT_REALM);
  const resourceMetadata = createResourceMetadata(options.resourceMetadata, accepts);
  const bearer: ChallengeContext = Object.freeze({
    realm,
    bearer: accepts?.bearer ?? true,
    dpopAlgorithms: accepts?.dpop?.algorithms.join(' '),
    resourceMetadata: resourceMetadata?.url,
  });
  const routePath = `${normaliseBasePath(FACTORY, options.basePath)}/plants`;
  return {
    publicUrl,
    clientCertificateHeader: certificateHeaderOption(options.clientCertificateHeader),
    accepts,
    resourceMetadata,
    challenges: { Bearer: bearer, DPoP: Object.freeze({ ...bearer, scheme: 'DPoP' }) },
    store,
    auth,
    verify: verifierOf(auth),
    routePath,
    bodyLimit: wholeNumber(
      FACTORY,
      'bodyLimit',
      options.bodyLimit,
      { min: 1, max: 1024 ** 3 },
      16_384,
    ),
    bodyTimeout: wholeNumber(FACTORY, 'bodyTimeout', options.bodyTimeout, timer, 10_000),
    storeTimeout: wholeNumber(
      FACTORY,
      'storeTimeout',
      options.storeTimeout,
      timer,
      STORE_TIMEOUT_MS,
    ),
    retryAfter: wholeNumber(FACTORY, 'retryAfter', options.retryAfter, RETRY_AFTER_RANGE, 5),
    realm,
    strictRouting: optionalBoolean(FACTORY, 'strictRouting', options.strictRouting),
    caseSensitiveRouting: optionalBoolean(
      FACTORY,
      'caseSensitiveRouting',
      options.caseSensitiveRouting,
    ),
    tenantOf: tenantOption(FACTORY, options.tenant),
    isOwner: optionalFunction<OwnerCheck>(FACTORY, 'isOwner', options.isOwner) ?? isSameOwner,
    eventOf: eventsOption(options.events, store, `${publicUrl ?? ''}${routePath}`),
    onCreated: optionalFunction(FACTORY, 'onCreated', options.onCreated),
    onRejected: optionalFunction(FACTORY, 'onRejected', options.onRejected),
    onError:
      logger === undefined
        ? onError
        : onError === undefined
          ? logFailures(logger)
          : guardedOnError(onError, logger),
    logger,
  };
}
