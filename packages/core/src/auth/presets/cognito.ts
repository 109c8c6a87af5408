import { describeValue, optionError } from '../../options/check-options';
import { named, nameList, optional, presetValues, type PresetOf } from './preset-values';
import { PRESET_REQUIRED_CLAIMS } from '../jwt/options/preset-keys';

/** Options of {@link cognito}: what the Amazon Cognito console shows for a user pool. */
export type CognitoPresetOptions = Readonly<{
  region?: string;
  userPoolId: string;
  clientIds: string | readonly string[];
}>;

/** The `jwtBearer` options of an API taking a Cognito user pool's access tokens. */
export type CognitoPreset = PresetOf<
  'jwksUri' | 'issuer' | 'clients' | typeof PRESET_REQUIRED_CLAIMS
>;

// `eu-west-1_AbCdEfGhI`: the pool's region, then its own id.
const POOL_ID = /^([a-z]{2}(?:-[a-z]+)+-\d)_[A-Za-z0-9]+$/u;

/**
 * Amazon Cognito user pools: `iss` `https://cognito-idp.{region}.amazonaws.com/{userPoolId}`, keys
 * from `{issuer}/.well-known/jwks.json`. Access tokens carry no `aud`: the app client is checked
 * in `client_id` (`clients`), and `token_use` is required, so only `"access"` passes; ID tokens
 * (`token_use` `"id"`, `aud` the client) are refused as ID tokens. Scopes come from `scope`.
 *
 * @param options - `userPoolId` (`eu-west-1_AbCdEfGhI`); `clientIds`: the app clients whose access
 *   tokens are accepted; `region`: default the one the pool's ID starts with
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed, or the region is not
 *   the pool's
 * @example
 * ```ts
 * jwtBearer({ ...cognito({ userPoolId: 'eu-west-1_AbCdEfGhI', clientIds: ['4example5678'] }), requiredScopes: ['plants/write'] });
 * ```
 */
export function cognito(options: CognitoPresetOptions): CognitoPreset {
  const { region, userPoolId, clientIds } = presetValues('cognito', options, {
    region: optional(named(/^[a-z]{2}(?:-[a-z]+)+-\d$/u)),
    userPoolId: named(POOL_ID),
    clientIds: nameList,
  });
  const poolRegion = POOL_ID.exec(userPoolId)?.[1] ?? '';
  if (region !== undefined && region !== poolRegion) {
    // A pool lives in one region; another one's issuer would refuse every token.
    optionError('cognito', 'region', `must be the pool's, ${poolRegion}`, describeValue(region));
  }
  const issuer = `https://cognito-idp.${poolRegion}.amazonaws.com/${userPoolId}`;
  const jwksUri = `${issuer}/.well-known/jwks.json`;
  return { jwksUri, issuer, clients: clientIds, [PRESET_REQUIRED_CLAIMS]: ['token_use'] };
}
