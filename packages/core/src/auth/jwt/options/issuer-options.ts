import { accessTokenChecks } from './access-token-options';
import type { IssuerVerifierConfig } from '../issuer-verifier';
import { tokenAge } from '../../../options/token-age';
import { remoteKeySetConfig } from '../../keys/options/remote-key-set-options';
import { describeValue, optionError, stringList } from '../../../options/check-options';
import { secureUrlOption } from '../../issuer-url';
import { tenantOptions } from './tenant-options';
import { ID_TOKENS_ACCEPTED, PRESET_REQUIRED_CLAIMS } from './preset-keys';
import {
  ASYMMETRIC_ALGORITHMS,
  importPublicKey,
  importSecret,
  type JwsAlgorithm,
} from '../../keys/verification-key';

/**
 * One issuer's options as given, unchecked: the top-level options of a single-issuer `jwtBearer`, or
 * an entry of `issuers` with the shared defaults filled in.
 */
export interface IssuerOptionValues {
  readonly secret?: unknown;
  readonly publicKey?: unknown;
  readonly jwksUri?: unknown;
  readonly issuer?: unknown;
  readonly audience?: unknown;
  readonly clients?: unknown;
  readonly tenants?: unknown;
  readonly tenantClaim?: unknown;
  readonly [ID_TOKENS_ACCEPTED]?: unknown;
  readonly [PRESET_REQUIRED_CLAIMS]?: unknown;
  readonly algorithms?: unknown;
  readonly jwks?: unknown;
  readonly typ?: unknown;
  readonly profile?: unknown;
  readonly scopeClaims?: unknown;
  readonly requiredClaims?: unknown;
  readonly maxTokenAge?: unknown;
}

/** What every issuer shares, already checked. */
export interface SharedIssuerSettings {
  /** Seconds of clock skew allowed. */
  readonly clockTolerance: number;
  readonly fetch: typeof fetch | undefined;
  readonly now: (() => number) | undefined;
}

/** Where the options are: at the top level of `jwtBearer`, or in an entry of `issuers`. */
export interface IssuerOptionPlace {
  /** Before each option's name in error messages: `''`, or `issuers[1].`. */
  readonly prefix: string;
  /** An entry of `issuers`: `issuer` is exactly one string, and selects the entry. */
  readonly entry: boolean;
}

const NON_EMPTY = { pattern: /^./s, items: 'non-empty strings', emptyAllowed: true };
// An empty issuer or audience list would refuse every token: surely a mistake.
const NON_EMPTY_LIST = { ...NON_EMPTY, emptyAllowed: false };

function algorithms(
  value: unknown,
  fit: readonly JwsAlgorithm[],
  kind: string,
  option: string,
): JwsAlgorithm[] {
  if (value === undefined) return [...fit];
  if (!Array.isArray(value) || value.length === 0) {
    return optionError('jwtBearer', option, 'must be a non-empty array', describeValue(value));
  }
  for (const alg of value as unknown[]) {
    const received = typeof alg === 'string' ? `"${alg}"` : describeValue(alg);
    if (typeof alg === 'string' && alg.toLowerCase() === 'none') {
      optionError('jwtBearer', option, 'must never allow none (unsigned tokens)', received);
    }
    if (!fit.some((allowed) => allowed === alg)) {
      optionError(
        'jwtBearer',
        option,
        `must only hold what fits ${kind}: ${fit.join(', ')}`,
        received,
      );
    }
  }
  return value as JwsAlgorithm[];
}

/** An entry's `issuer`: exactly one non-empty string, compared as it is with the token's `iss`. */
function entryIssuer(value: unknown, option: string): string {
  if (typeof value === 'string' && value !== '') return value;
  return optionError('jwtBearer', option, 'must be one non-empty string', describeValue(value));
}

const unique = (list: readonly string[]): string[] => [...new Set(list)];

/**
 * Reads what a provider preset put under {@link PRESET_REQUIRED_CLAIMS}.
 *
 * @param value - the key's value: undefined, or the preset's list of claim names
 * @returns the claim names
 * @throws TypeError for anything else: only our presets write the key
 * @example
 * ```ts
 * presetClaims(zitadel({ issuer, audience })[PRESET_REQUIRED_CLAIMS]); // ['jti']
 * ```
 */
export function presetClaims(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((claim) => typeof claim === 'string' && claim !== '')) {
    return value as string[];
  }
  throw new TypeError("jwtBearer: a provider preset's required claims are not a list of names");
}

/**
 * Checks the options of one issuer and imports its key, once, at start-up: exactly one key source,
 * algorithms that fit it, the accepted `iss` and `aud`, and the token checks.
 *
 * @param options - the issuer's options, see {@link IssuerOptionValues}
 * @param shared - what every issuer shares: clock tolerance, fetch and clock
 * @param place - where the options are, for messages and for the rules of an `issuers` entry
 * @returns the verifier's config
 * @throws TypeError naming the option (`issuers[1].audience` in an entry): not exactly one key,
 *   `none` or an algorithm that does not fit the key, a short secret, an unusable key or URL, a
 *   missing issuer or audience where the key source or profile needs them, a bad number
 * @example
 * ```ts
 * const shared = { clockTolerance: 5, fetch: undefined, now: undefined };
 * resolveIssuerOptions({ secret, issuer: 'billing' }, shared, { prefix: '', entry: false });
 * ```
 */
export function resolveIssuerOptions(
  options: IssuerOptionValues,
  shared: SharedIssuerSettings,
  place: IssuerOptionPlace,
): IssuerVerifierConfig {
  const { prefix } = place;
  const name = (option: string): string => `${prefix}${option}`;
  const keys = (['secret', 'publicKey', 'jwksUri'] as const).filter(
    (k) => options[k] !== undefined,
  );
  if (keys.length !== 1) {
    const received = keys.length === 0 ? 'none of them' : keys.join(' and ');
    const several = place.entry ? '' : ' (or "issuers", for several issuers)';
    const expected = `exactly one of the options "${name('secret')}", "${name('publicKey')}" and "${name('jwksUri')}"${several} is required`;
    throw new TypeError(`jwtBearer: ${expected}; received ${received}`);
  }

  let source: IssuerVerifierConfig['source'];
  let fit: readonly JwsAlgorithm[];
  let kind: string;
  if (options.jwksUri === undefined) {
    if (options.jwks !== undefined) {
      optionError('jwtBearer', name('jwks'), 'applies only with jwksUri', 'a value');
    }
    const secret = options.secret !== undefined;
    const imported = secret
      ? importSecret(options.secret, name('secret'))
      : importPublicKey(options.publicKey, name('publicKey'));
    source = { key: imported.key };
    fit = imported.allowed;
    kind = secret ? 'a secret of this length' : 'this public key';
  } else {
    const { fetch, now, clockTolerance } = shared;
    const jwks = remoteKeySetConfig(options.jwks, fetch, now, clockTolerance, name('jwks.'));
    source = { url: secureUrlOption('jwtBearer', name('jwksUri'), options.jwksUri), jwks };
    fit = ASYMMETRIC_ALGORITHMS;
    kind = 'a JWKS';
  }

  const tenant = tenantOptions(options, name);
  // A template is checked per token (its tenant's exact issuer), not by jose's fixed `issuer`.
  const issuer =
    tenant !== undefined
      ? undefined
      : place.entry
        ? [entryIssuer(options.issuer, name('issuer'))]
        : stringList('jwtBearer', name('issuer'), options.issuer, NON_EMPTY_LIST);
  const audience = stringList('jwtBearer', name('audience'), options.audience, NON_EMPTY_LIST);
  const clients = stringList('jwtBearer', name('clients'), options.clients, NON_EMPTY_LIST);
  const checks = accessTokenChecks(options, prefix);
  const requiredClaims = unique([
    ...(stringList('jwtBearer', name('requiredClaims'), options.requiredClaims, NON_EMPTY) ?? []),
    ...presetClaims(options[PRESET_REQUIRED_CLAIMS]),
    ...checks.profileClaims,
  ]);
  const maxTokenAge = tokenAge(options.maxTokenAge, name('maxTokenAge'));
  const allowed = algorithms(options.algorithms, fit, kind, name('algorithms'));
  // A shared identity provider signs tokens for every API it serves: without these checks a token
  // minted for another API (or another tenant) would be accepted here. Where its access tokens name
  // no audience (Cognito, Clerk), the client they were issued to ties them to this API instead.
  const needsBoth = options.jwksUri !== undefined || options.profile !== undefined;
  const needed = issuer === undefined && tenant === undefined ? 'issuer' : 'audience';
  if (needsBoth && (needed === 'issuer' || (audience === undefined && clients === undefined))) {
    optionError(
      'jwtBearer',
      name(needed),
      `is required${needed === 'audience' ? ' (or "clients", where tokens name no aud)' : ''} with ${options.profile === undefined ? 'jwksUri' : 'profile "rfc9068"'} (tokens for other APIs of the same provider would pass)`,
      'nothing',
    );
  }
  return {
    issuer: place.entry ? (tenant?.template ?? issuer?.[0]) : undefined,
    tenant,
    clients,
    idTokens: options[ID_TOKENS_ACCEPTED] === true,
    source,
    verifyOptions: {
      algorithms: allowed,
      clockTolerance: shared.clockTolerance,
      ...(issuer && { issuer }),
      ...(audience && { audience }),
      ...(requiredClaims.length > 0 && { requiredClaims }),
      ...(maxTokenAge !== undefined && { maxTokenAge }),
    },
    acceptedTypes: checks.acceptedTypes,
    scopeClaims: checks.scopeClaims,
  };
}
