import { jwtBearer, type JwtBearerOptionFields } from '@plantstore/core';
import { afterAll, beforeAll } from 'vitest';
import { API } from './provider-config';
import { startProvider, type ProviderHost, type ProviderHostOptions } from './provider-host';

/**
 * oidc-provider for the tests of the calling file: started before them, stopped for good after them.
 * Read its fields inside hooks and tests, once it runs.
 *
 * @param options - how to serve it, made when it starts (TLS certificates are made in the test)
 * @returns the provider, as {@link startProvider} returns it
 */
export function providerOfThisFile(
  options: () => Promise<ProviderHostOptions> = () => Promise.resolve({}),
): ProviderHost {
  let running: ProviderHost | undefined;
  beforeAll(async () => {
    running = await startProvider(await options());
  });
  afterAll(() => running?.close());
  const host = (): ProviderHost => {
    if (running === undefined) throw new Error('the provider starts in beforeAll');
    return running;
  };
  return {
    get issuer() {
      return host().issuer;
    },
    get jwksUri() {
      return host().jwksUri;
    },
    get keys() {
      return host().keys;
    },
    stop: () => host().stop(),
    start: (keys) => host().start(keys),
    close: () => host().close(),
  };
}

/** Options on top of the provider's key set: anything but another key source. */
export type ProviderBearerOptions = Partial<
  Omit<JwtBearerOptionFields, 'secret' | 'publicKey' | 'issuers'>
>;

/**
 * The route's `jwtBearer` for the provider's tokens: its key set and issuer, the API as audience,
 * and `options` on top.
 *
 * @param provider - the running provider
 * @param options - further options of `jwtBearer`
 * @returns the authenticator
 */
export function jwtBearerFor(
  provider: ProviderHost,
  options: ProviderBearerOptions = {},
): ReturnType<typeof jwtBearer> {
  return jwtBearer({
    jwksUri: provider.jwksUri,
    issuer: provider.issuer,
    audience: API,
    ...options,
  });
}
