/**
 * The JSON-safe `jwtBearer` options `options.auth` was built from, for a target that runs the route in
 * another process (Bun, Deno) and so builds its own `jwtBearer` there.
 */
export interface ContractAuth {
  readonly jwksUri: string;
  readonly issuer: string;
  readonly audience: string;
  readonly requiredScopes?: readonly string[];
}

/** What the suite tells a target beside the options, for targets that cannot take them as they are. */
export interface ContractSetup {
  readonly auth: ContractAuth;
}
