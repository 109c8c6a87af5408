import type { TokenFixture, VariantFixture } from './provider-fixture.test-support';

/**
 * The token a variant stands for: its own, or the access token with its header members and claims
 * replaced (`undefined` removes one).
 *
 * @param accessToken - the provider's access token
 * @param variant - what changes
 * @returns the token's header and claims
 */
export function variantToken(accessToken: TokenFixture, variant: VariantFixture): TokenFixture {
  return (
    variant.token ?? {
      header: { ...accessToken.header, ...variant.header },
      claims: { ...accessToken.claims, ...variant.claims },
    }
  );
}
