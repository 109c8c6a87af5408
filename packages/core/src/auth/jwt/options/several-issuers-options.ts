import { accessTokenChecks } from './access-token-options';
import type { IssuerVerifierConfig } from '../issuer-verifier';
import {
  presetClaims,
  resolveIssuerOptions,
  type IssuerOptionValues,
  type SharedIssuerSettings,
} from './issuer-options';
import { tokenAge } from '../../../options/token-age';
import { ID_TOKENS_ACCEPTED, PRESET_REQUIRED_CLAIMS } from './preset-keys';
import { tuningDifference } from '../../keys/options/remote-key-set-options';
import type { RemoteKeySetConfig } from '../../keys/remote-key-set';
import {
  checkKnownOptions,
  describeValue,
  optionError,
  stringList,
} from '../../../options/check-options';

/** The most entries `issuers` takes: each may hold a key set, and the list is a config, not data. */
export const MAX_ISSUERS = 100;

// What only an issuer can say: its keys and what its tokens carry.
const PER_ISSUER = [
  'secret',
  'publicKey',
  'jwksUri',
  'issuer',
  'audience',
  'clients',
  'tenants',
  'tenantClaim',
  'algorithms',
  'jwks',
] as const;
// What an entry may also set, replacing the shared top-level default: a migration between providers
// differs in these.
const OVERRIDES = ['typ', 'profile', 'scopeClaims', 'requiredClaims', 'maxTokenAge'] as const;
const KNOWN_ENTRY = new Set<string>([...PER_ISSUER, ...OVERRIDES]);

/** The first entry to name each JWKS URL, and its key-set config. */
type KeySetOwners = Map<
  string,
  {
    readonly index: number;
    readonly jwks: RemoteKeySetConfig;
    readonly issuers: Set<string | undefined>;
  }
>;

/**
 * Entries that name one JWKS URL share one key set (jwtBearer's pool), so they must tune it alike:
 * refused rather than merged, since any merge would silently change what one entry asked for.
 */
function checkSharedKeySet(
  owners: KeySetOwners,
  config: IssuerVerifierConfig,
  index: number,
): void {
  if (!('url' in config.source)) return;
  const { url, jwks } = config.source;
  const owner = owners.get(url.href);
  if (owner === undefined) {
    owners.set(url.href, { index, jwks, issuers: new Set([config.issuer]) });
    return;
  }
  if (owner.issuers.has(config.issuer)) {
    // The same keys twice for one issuer: the second entry could only differ in its checks, and
    // would never be reached for a token the first one's keys verified.
    optionError(
      'jwtBearer',
      `issuers[${index}].jwksUri`,
      `must differ from every other entry's of the same issuer: give one entry a list of audiences`,
      url.href,
    );
  }
  owner.issuers.add(config.issuer);
  const difference = tuningDifference(jwks, owner.jwks);
  if (difference !== undefined) {
    optionError(
      'jwtBearer',
      `issuers[${index}].jwks`,
      `must be the same as issuers[${owner.index}].jwks: entries with one jwksUri share one key set`,
      difference,
    );
  }
}

/** The top-level options as given, unchecked, with `issuers`. */
export interface SeveralIssuersOptionValues extends IssuerOptionValues {
  readonly issuers?: unknown;
}

/**
 * Checks `jwtBearer({ issuers })` and imports every issuer's key, once, at start-up. Each entry names
 * exactly one `issuer` and has its own key source, audience and algorithms; an issuer with several
 * key sources (a secret beside a JWKS, two JWKS during a migration) has one entry for each;
 * `typ`, `profile`, `scopeClaims`, `requiredClaims` and `maxTokenAge` default to the top-level ones,
 * and an entry that sets `typ` or `profile` replaces both. Entries that name one `jwksUri` share one
 * key set, so their `jwks` options must agree.
 *
 * @param options - the top-level options, `issuers` among them
 * @param shared - what every issuer shares: clock tolerance, fetch and clock
 * @returns one verifier config per entry, in the order given
 * @throws TypeError naming the option: `issuers` not an array of 1 to 100 entries, a top-level
 *   option that belongs to an issuer, an entry's fault (`issuers[1].audiance`), an issuer and
 *   `jwksUri` repeated together,
 *   different `jwks` options for one `jwksUri`
 * @example
 * ```ts
 * const shared = { clockTolerance: 5, fetch: undefined, now: undefined };
 * resolveSeveralIssuers({ issuers: [{ issuer: 'billing', secret }] }, shared)[0].issuer; // 'billing'
 * ```
 */
export function resolveSeveralIssuers(
  options: SeveralIssuersOptionValues,
  shared: SharedIssuerSettings,
): [IssuerVerifierConfig, ...IssuerVerifierConfig[]] {
  const { issuers } = options;
  if (!Array.isArray(issuers) || issuers.length === 0 || issuers.length > MAX_ISSUERS) {
    return optionError(
      'jwtBearer',
      'issuers',
      `must be an array of 1 to ${MAX_ISSUERS} issuers`,
      describeValue(issuers),
    );
  }
  for (const option of PER_ISSUER) {
    if (options[option] !== undefined) {
      optionError(
        'jwtBearer',
        option,
        'cannot be used with "issuers": set it per issuer',
        describeValue(options[option]),
      );
    }
  }
  // The shared defaults are checked once, as the top-level options they are, before an entry
  // inherits them.
  accessTokenChecks(options);
  tokenAge(options.maxTokenAge);
  stringList('jwtBearer', 'requiredClaims', options.requiredClaims, {
    pattern: /^./s,
    items: 'non-empty strings',
    emptyAllowed: true,
  });

  const owners: KeySetOwners = new Map();
  const verifiers = (issuers as unknown[]).map((entry, index) => {
    const prefix = `issuers[${index}].`;
    checkKnownOptions('jwtBearer', entry, KNOWN_ENTRY, prefix);
    // `typ` and `profile` are one setting (the profile fixes the type): an entry takes both or neither.
    const ownType = entry['typ'] !== undefined || entry['profile'] !== undefined;
    const config = resolveIssuerOptions(
      {
        ...entry,
        typ: ownType ? entry['typ'] : options.typ,
        profile: ownType ? entry['profile'] : options.profile,
        scopeClaims: entry['scopeClaims'] ?? options.scopeClaims,
        requiredClaims: entry['requiredClaims'] ?? options.requiredClaims,
        maxTokenAge: entry['maxTokenAge'] ?? options.maxTokenAge,
        [ID_TOKENS_ACCEPTED]:
          (entry as IssuerOptionValues)[ID_TOKENS_ACCEPTED] ?? options[ID_TOKENS_ACCEPTED],
        // A preset's guard is never a default an entry replaces: both lists apply.
        [PRESET_REQUIRED_CLAIMS]: [
          ...presetClaims(options[PRESET_REQUIRED_CLAIMS]),
          ...presetClaims((entry as IssuerOptionValues)[PRESET_REQUIRED_CLAIMS]),
        ],
      },
      shared,
      { prefix, entry: true },
    );
    checkSharedKeySet(owners, config, index);
    return config;
  });
  return verifiers as [IssuerVerifierConfig, ...IssuerVerifierConfig[]];
}
