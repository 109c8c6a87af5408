import type { AcceptedCredentials } from '../authenticator';
import { isIssuerUrl } from '../issuer-url';
import type { TokenIntrospectionConfig } from './options/introspection-options';

const unique = (...lists: readonly (readonly string[])[]): string[] => [...new Set(lists.flat())];

/**
 * What `tokenIntrospection` accepts, for the service's challenges and RFC 9728 metadata: Bearer
 * tokens of its issuer, for its audiences, with its scopes, merged with what its `jwt` accepts.
 *
 * @param config - the checked options
 * @returns the accepted credentials
 * @throws TypeError when `jwt` requires DPoP or a certificate binding: opaque tokens, whose binding
 *   is not checked, would bypass the requirement
 * @example
 * ```ts
 * introspectionAccepts(config).issuers; // ['https://id.example.com']
 * ```
 */
export function introspectionAccepts(config: TokenIntrospectionConfig): AcceptedCredentials {
  const jwt = config.jwt?.accepts;
  if (jwt?.dpop?.required === true || jwt?.mtls?.required === true) {
    throw new TypeError(
      'tokenIntrospection: option "jwt" must not require DPoP or mTLS: opaque tokens, whose ' +
        'binding is not checked, would bypass the requirement',
    );
  }
  const issuerServers = isIssuerUrl(config.issuer) ? [config.issuer] : [];
  return Object.freeze({
    bearer: true,
    dpop: jwt?.dpop,
    mtls: jwt?.mtls,
    issuers: unique([config.issuer], jwt?.issuers ?? []),
    authorizationServers: unique(issuerServers, jwt?.authorizationServers ?? []),
    audiences: unique(config.audiences, jwt?.audiences ?? []),
    scopes: unique(config.requiredScopes, jwt?.scopes ?? []),
  });
}
