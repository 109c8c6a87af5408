import {
  type Authenticator,
  jwtBearer,
  memoryStore,
  type PlantServiceOptions,
} from '@plantstore/core';
import { createTokenIssuer, type DpopClient, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type Outgoing, postPlant, type Reply } from './client/send';
import type { ContractHost } from './hosts/target';

/** The scope the fixture's token carries and its bearer check requires. */
const SCOPE = 'plants:write';
/** The `publicUrl` of {@link HostFixture.dpopOptions}, and the origin of its resource. */
const PUBLIC_URL = 'https://api.example.com';

/** What focused host tests share: a local identity provider, a token, and hosts closed after each test. */
export interface HostFixture {
  /** A token of the subject `gardener` with the scope `plants:write`. */
  readonly token: string;
  /** A bearer check against the local identity provider, requiring `plants:write`. */
  auth(): Authenticator;
  /** Route options: a fresh `memoryStore()`, {@link HostFixture.auth}, and `extra` over them. */
  options(extra?: Partial<PlantServiceOptions>): PlantServiceOptions;
  /**
   * Route options with DPoP: a fresh `memoryStore()`, a check of DPoP-bound tokens for the resource
   * `https://api.example.com/plants` requiring `plants:write`, `publicUrl: 'https://api.example.com'`
   * and `resourceMetadata: true`, and `extra` over them.
   */
  dpopOptions(extra?: Partial<PlantServiceOptions>): PlantServiceOptions;
  /** A token for {@link HostFixture.dpopOptions}' resource, bound to the key of `client`. */
  boundToken(client: DpopClient): Promise<string>;
  /** Closes the host after the test. */
  track<Host extends ContractHost>(host: Host): Host;
  /** `POST {url}/plants` with the token and `Content-Type: application/json`. */
  post(url: string, body: string | Uint8Array, extra?: Outgoing): Promise<Reply>;
}

/**
 * Registers the hooks of a {@link HostFixture} in the current file or `describe`.
 *
 * @returns the fixture; its token is there once `beforeAll` has run
 * @example
 * const fixture = useHostFixture();
 * it('creates', async () => {
 *   const host = fixture.track(await listen(expressHostApp(express5, plantRouter(fixture.options()))));
 *   expect((await fixture.post(host.url, '{"id":1,"name":"a"}')).status).toBe(200);
 * });
 */
export function useHostFixture(): HostFixture {
  let issuer: TokenIssuer;
  let token = '';
  const hosts: ContractHost[] = [];

  beforeAll(async () => {
    issuer = await createTokenIssuer();
    token = await issuer.sign({ sub: 'gardener', scope: SCOPE });
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });
  afterAll(async () => {
    await issuer.close();
  });

  const auth = (): Authenticator =>
    jwtBearer({
      jwksUri: issuer.jwksUri,
      issuer: issuer.issuer,
      audience: issuer.audience,
      requiredScopes: [SCOPE],
    });
  return {
    get token() {
      return token;
    },
    auth,
    options: (extra = {}) => ({ store: memoryStore(), auth: auth(), ...extra }),
    dpopOptions: (extra = {}) => ({
      store: memoryStore(),
      auth: jwtBearer({
        jwksUri: issuer.jwksUri,
        issuer: issuer.issuer,
        audience: `${PUBLIC_URL}/plants`,
        requiredScopes: [SCOPE],
        dpop: true,
      }),
      publicUrl: PUBLIC_URL,
      resourceMetadata: true,
      ...extra,
    }),
    boundToken: (client) =>
      issuer.sign({ aud: `${PUBLIC_URL}/plants`, scope: SCOPE }, { boundTo: client }),
    track(host) {
      hosts.push(host);
      return host;
    },
    post: (url, body, extra) => postPlant(url, token, body, extra),
  };
}
