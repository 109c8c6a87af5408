/**
 * The key, set only by a provider preset, that accepts ID tokens as bearer tokens: Firebase's ID
 * tokens are its bearer tokens by design. A symbol, not a named option, so that no configuration
 * written by hand (or parsed from a file) turns the refusal of ID tokens off.
 */
export const ID_TOKENS_ACCEPTED: unique symbol = Symbol.for(
  'plantstore.jwtBearer.idTokensAccepted',
);

/**
 * The key under which a provider preset puts the claims that tell its access tokens from its other
 * tokens (ZITADEL's `jti`, Cognito's `token_use`, Entra ID's `azp` or `appid`). A symbol, so that
 * a host's own `requiredClaims`, spread over the preset, adds to these instead of replacing them:
 * `jwtBearer` requires both lists.
 */
export const PRESET_REQUIRED_CLAIMS: unique symbol = Symbol.for(
  'plantstore.jwtBearer.presetRequiredClaims',
);
