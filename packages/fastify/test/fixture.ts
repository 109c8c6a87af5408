import { type Authenticator, jwtBearer } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { type ContractHost, type Outgoing, type Reply, send } from '@plantstore/http-suite';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** What the focused tests share: a local identity provider, a token, and hosts closed after each test. */
export interface Fixture {
  readonly token: string;
  /** A bearer check against the local identity provider. */
  auth(): Authenticator;
  /** Closes the host after the test. */
  track(host: ContractHost): ContractHost;
  /** `POST {url}/plants` with the token and `Content-Type: application/json`. */
  post(url: string, body: string | Uint8Array, extra?: Outgoing): Promise<Reply>;
}

/** Registers the hooks of a {@link Fixture} in the current file or `describe`. */
export function useFixture(): Fixture {
  let issuer: TokenIssuer;
  let token = '';
  const hosts: ContractHost[] = [];

  beforeAll(async () => {
    issuer = await createTokenIssuer();
    token = await issuer.sign({ sub: 'gardener', scope: 'plants:write' });
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });
  afterAll(async () => {
    await issuer.close();
  });

  return {
    get token() {
      return token;
    },
    auth: () =>
      jwtBearer({ jwksUri: issuer.jwksUri, issuer: issuer.issuer, audience: issuer.audience }),
    track(host) {
      hosts.push(host);
      return host;
    },
    post: (url, body, extra = {}) =>
      send(url, {
        ...extra,
        body,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...extra.headers,
        },
      }),
  };
}
