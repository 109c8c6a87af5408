import { describeValue, optionError } from '../../../options/check-options';
import { DEFAULT_SCOPE_CLAIMS } from '../../scopes';
import { DEFAULT_TOKEN_TYPES, normaliseTokenType } from '../token-type';

/** A preset of access-token checks: `'rfc9068'` is RFC 9068's JWT access token profile. */
export type AccessTokenProfile = 'rfc9068';

/** The claims RFC 9068 §2.2 makes every JWT access token carry. */
export const RFC9068_CLAIMS: readonly string[] = [
  'iss',
  'exp',
  'aud',
  'sub',
  'client_id',
  'iat',
  'jti',
];

/** What the access-token options of `jwtBearer` come to. */
export interface AccessTokenChecks {
  /** Normalised `typ` values accepted; `undefined` in the list accepts a token without `typ`. */
  readonly acceptedTypes: readonly (string | undefined)[];
  /** Claims the profile requires, added to `requiredClaims`. */
  readonly profileClaims: readonly string[];
  /** Which claims grant scopes. */
  readonly scopeClaims: readonly string[];
}

// RFC 7519 §4: a claim name is a string; this keeps the common ones and refuses what cannot be one.
const CLAIM_NAME = /^[\x21-\x7e]+$/u;
const TYP = /^[\x21-\x7e]+$/u;

/**
 * Checks `typ`, `profile` and `scopeClaims` of `jwtBearer`, once, at start-up.
 *
 * @param options - the three options as the host passed them
 * @param prefix - before each name in error messages (`issuers[1].` for an issuer's)
 * @returns the checks the verifier applies to every token
 * @throws TypeError naming the option
 * @example
 * ```ts
 * accessTokenChecks({ profile: 'rfc9068' }).acceptedTypes; // ['at+jwt']
 * ```
 */
export function accessTokenChecks(
  options: {
    readonly typ?: unknown;
    readonly profile?: unknown;
    readonly scopeClaims?: unknown;
  },
  prefix = '',
): AccessTokenChecks {
  const { typ, profile, scopeClaims } = options;
  if (profile !== undefined && profile !== 'rfc9068') {
    optionError('jwtBearer', `${prefix}profile`, 'must be "rfc9068"', describeValue(profile));
  }
  if (profile !== undefined && typ !== undefined) {
    optionError(
      'jwtBearer',
      `${prefix}typ`,
      'is set by profile "rfc9068" (at+jwt); give one of the two',
      'both',
    );
  }
  let acceptedTypes = DEFAULT_TOKEN_TYPES;
  if (profile === 'rfc9068') acceptedTypes = ['at+jwt'];
  else if (typ !== undefined) {
    acceptedTypes = nonEmptyList(`${prefix}typ`, typ, TYP).map(normaliseTokenType);
  }
  return {
    acceptedTypes,
    profileClaims: profile === 'rfc9068' ? RFC9068_CLAIMS : [],
    scopeClaims:
      scopeClaims === undefined
        ? DEFAULT_SCOPE_CLAIMS
        : nonEmptyList(`${prefix}scopeClaims`, scopeClaims, CLAIM_NAME),
  };
}

function nonEmptyList(option: string, value: unknown, pattern: RegExp): string[] {
  const list: unknown[] = Array.isArray(value) ? value : [value];
  if (list.length > 0 && list.every((item) => typeof item === 'string' && pattern.test(item))) {
    return [...(list as string[])];
  }
  return optionError(
    'jwtBearer',
    option,
    'must be a non-empty string or list of them',
    describeValue(value),
  );
}
