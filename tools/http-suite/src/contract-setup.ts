/** One issuer of a several-issuers {@link ContractAuth}: its `iss`, JWKS and audience. */
export interface ContractIssuer {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly audience: string;
}

/** The JSON-safe `dpop` options of `jwtBearer`, for a target that builds its own in another process. */
export interface ContractDpop {
  readonly required?: boolean;
  readonly nonce?: boolean | { readonly secret?: string; readonly lifetime?: number | string };
}

/**
 * The JSON-safe `jwtBearer` options `options.auth` was built from, for a target that runs the route in
 * another process (Bun, Deno) and so builds its own `jwtBearer` there: one issuer, or several.
 */
export type ContractAuth =
  | {
      readonly jwksUri: string;
      readonly issuer: string;
      readonly audience: string;
      readonly requiredScopes?: readonly string[];
      readonly dpop?: ContractDpop;
      readonly mtls?: ContractMtls;
    }
  | {
      readonly issuers: readonly ContractIssuer[];
      readonly requiredScopes?: readonly string[];
      readonly dpop?: ContractDpop;
      readonly mtls?: ContractMtls;
    };

/** The JSON-safe `mtls` option of `jwtBearer` (RFC 8705 certificate-bound tokens). */
export type ContractMtls = boolean | { readonly required?: boolean };

/**
 * PEM key and certificates of an HTTPS host: the server's, and the CA whose client certificates it
 * asks for (see `testCertificates`).
 */
export interface ContractTls {
  readonly key: string;
  readonly cert: string;
  readonly ca: string;
}

/** What the suite tells a target beside the options, for targets that cannot take them as they are. */
export interface ContractSetup {
  readonly auth: ContractAuth;
  /**
   * Serve HTTPS with these, asking clients for a certificate without requiring one (mutual TLS,
   * RFC 8705). A target that cannot must not be given it: the suite skips its TLS cases.
   */
  readonly tls?: ContractTls;
}
