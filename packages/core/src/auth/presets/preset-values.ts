// What every identity-provider preset checks in the few values it is given, so a preset fails at
// start-up the way jwtBearer does: a TypeError naming the preset, the option and what came.

import type { JwtBearerOptionFields } from '../jwt/options/jwt-bearer-option-types';
import { isIssuerUrl } from '../issuer-url';
import {
  checkKnownOptions,
  describeValue,
  optionError,
  stringList,
  type Factory,
} from '../../options/check-options';

// A DNS name as a provider's console shows it (`dev-abc.us.auth0.com`), without scheme or path.
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/iu;
// Microsoft's tenant and application ids are GUIDs, and `iss` always names the tenant by its GUID.
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;
const NON_EMPTY = {
  pattern: /^\S+$/u,
  items: 'non-empty strings without spaces',
  emptyAllowed: false,
};

/** What a preset returns: the named options of `jwtBearer`, each one set. */
export type PresetOf<K extends keyof JwtBearerOptionFields> = {
  readonly [P in K]-?: Exclude<JwtBearerOptionFields[P], undefined>;
};

/** Checks one value of a preset's options: the preset, the option's name, what came. */
export type PresetCheck<T> = (factory: Factory, option: string, value: unknown) => T;

/**
 * Checks a preset's options: refuses an object holding a name it does not know, and runs each
 * option's check, so a preset fails at start-up the way `jwtBearer` does.
 *
 * @param factory - the preset
 * @param options - what the host passed
 * @param checks - one check per option name
 * @returns each option's checked value
 * @throws TypeError naming the preset and the option (and the closest known name for a typo)
 * @example
 * ```ts
 * presetValues('auth0', { domian: 'x' }, { domain: hostName });
 * // TypeError: auth0: unknown option "domian" (did you mean "domain"?)
 * ```
 */
export function presetValues<C extends Record<string, PresetCheck<unknown>>>(
  factory: Factory,
  options: unknown,
  checks: C,
): { readonly [K in keyof C]: ReturnType<C[K]> } {
  checkKnownOptions(factory, options, new Set(Object.keys(checks)));
  const entries = Object.entries(checks).map(([name, check]) => [
    name,
    check(factory, name, options[name]),
  ]);
  return Object.fromEntries(entries) as { readonly [K in keyof C]: ReturnType<C[K]> };
}

/**
 * A check that fills in a default for an absent value first.
 *
 * @param check - the option's check
 * @param fallback - the provider's default
 * @returns the check
 * @example
 * ```ts
 * presetValues('okta', options, { audience: orDefault(nameList, 'api://default') });
 * ```
 */
export function orDefault<T>(check: PresetCheck<T>, fallback: unknown): PresetCheck<T> {
  return (factory, option, value) => check(factory, option, value ?? fallback);
}

/**
 * A check that leaves an absent value absent.
 *
 * @param check - the option's check
 * @returns the check
 * @example
 * ```ts
 * presetValues('cognito', options, { region: optional(named(REGION)) });
 * ```
 */
export function optional<T>(check: PresetCheck<T>): PresetCheck<T | undefined> {
  return (factory, option, value) =>
    value === undefined ? undefined : check(factory, option, value);
}

/**
 * A check for a required string matching the provider's rule: a realm, a project id.
 *
 * @param pattern - what the provider allows
 * @returns the check
 * @example
 * ```ts
 * presetValues('keycloak', options, { realm: named(/^[^/\s]+$/u) });
 * ```
 */
export function named(pattern: RegExp): PresetCheck<string> {
  return (factory, option, value) => requiredName(factory, option, value, pattern);
}

/**
 * A required string without spaces: a client id, a realm, a project id.
 *
 * @param factory - the preset
 * @param option - the option's name
 * @param value - what came
 * @param pattern - what the provider allows, when narrower than "no spaces"
 * @returns the string
 * @throws TypeError for anything else
 * @example
 * ```ts
 * requiredName('keycloak', 'realm', 'plants'); // 'plants'
 * ```
 */
export function requiredName(
  factory: Factory,
  option: string,
  value: unknown,
  pattern: RegExp = /^\S+$/u,
): string {
  if (typeof value === 'string' && pattern.test(value)) return value;
  return optionError(
    factory,
    option,
    `must be a string matching ${String(pattern)}`,
    describeValue(value),
  );
}

/**
 * A host name as a provider's console shows it (`dev-abc.us.auth0.com`): no scheme, no path.
 *
 * @param factory - the preset
 * @param option - the option's name
 * @param value - what came
 * @returns the host name
 * @throws TypeError for anything else, a URL included
 * @example
 * ```ts
 * hostName('auth0', 'domain', 'dev-abc.us.auth0.com');
 * ```
 */
export function hostName(factory: Factory, option: string, value: unknown): string {
  if (typeof value === 'string' && HOST_NAME.test(value)) return value;
  return optionError(
    factory,
    option,
    'must be a host name without scheme or path (id.example.com)',
    describeValue(value),
  );
}

/**
 * A Microsoft tenant or application id: a GUID.
 *
 * @param factory - the preset
 * @param option - the option's name
 * @param value - what came
 * @returns the GUID, in lower case as Microsoft writes it in tokens
 * @throws TypeError for anything else (a tenant's domain name included: `iss` names its GUID)
 * @example
 * ```ts
 * guid('entraId', 'tenantId', '72F988BF-86F1-41AF-91AB-2D7CD011DB47');
 * ```
 */
export function guid(factory: Factory, option: string, value: unknown): string {
  if (typeof value === 'string' && GUID.test(value)) return value.toLowerCase();
  return optionError(
    factory,
    option,
    'must be a GUID (the id the portal shows)',
    describeValue(value),
  );
}

/**
 * An issuer or base URL: `https:` (`http:` on a loopback host), no query or fragment.
 *
 * @param factory - the preset
 * @param option - the option's name
 * @param value - what came
 * @returns the URL as given (a string), so an `iss` built from it is compared exactly
 * @throws TypeError for anything else
 * @example
 * ```ts
 * baseUrl('keycloak', 'url', 'https://sso.example.com'); // 'https://sso.example.com'
 * ```
 */
export function baseUrl(factory: Factory, option: string, value: unknown): string {
  if (typeof value === 'string' && isIssuerUrl(value)) return value;
  return optionError(
    factory,
    option,
    'must be an https: URL without query or fragment',
    describeValue(value),
  );
}

/**
 * A non-empty list of strings without spaces, from one string or a list: client ids, audiences.
 *
 * @param factory - the preset
 * @param option - the option's name
 * @param value - what came
 * @returns a new list
 * @throws TypeError for anything else, an empty list included
 * @example
 * ```ts
 * nameList('cognito', 'clientIds', '1example23456789'); // ['1example23456789']
 * ```
 */
export function nameList(factory: Factory, option: string, value: unknown): string[] {
  const list = stringList(factory, option, value, NON_EMPTY);
  return list ?? optionError(factory, option, 'is required', 'nothing');
}

/**
 * A base URL without its trailing slashes, for building a provider's paths on it.
 *
 * @param url - a URL checked by {@link baseUrl}
 * @returns the URL without trailing `/`
 * @example
 * ```ts
 * withoutTrailingSlash('https://sso.example.com/'); // 'https://sso.example.com'
 * ```
 */
export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/u, '');
}

/**
 * A base URL checked by {@link baseUrl}, without its trailing slashes, for building paths on it.
 *
 * @param factory - the preset
 * @param option - the option's name
 * @param value - what came
 * @returns the URL without trailing `/`
 * @throws TypeError for anything but such a URL
 * @example
 * ```ts
 * trimmedUrl('keycloak', 'url', 'https://sso.example.com/'); // 'https://sso.example.com'
 * ```
 */
export function trimmedUrl(factory: Factory, option: string, value: unknown): string {
  return withoutTrailingSlash(baseUrl(factory, option, value));
}
