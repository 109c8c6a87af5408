import {
  type Authenticator,
  createPlantService,
  dpopBinding,
  jwtBearer,
  memoryStore,
  type PlantService,
  type PlantServiceOptions,
  type Principal,
} from '@plantstore/core';
import {
  createDpopClient,
  createTokenIssuer,
  type DpopClient,
  type TokenIssuer,
} from '@plantstore/core/testing';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type Outgoing, postPlant, type Reply, send } from './client/send';
import { type CapturedLogger, capturedLogger } from './contract/captured-logger';
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
  /**
   * Route options: a fresh `memoryStore()`, {@link HostFixture.auth}, {@link HostFixture.logger},
   * and `extra` over them.
   */
  options(extra?: Partial<PlantServiceOptions>): PlantServiceOptions;
  /** What the fixture's routes logged, kept instead of printed. */
  readonly logger: CapturedLogger;
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
  /**
   * Expects what an adapter's request state holds, as a host observer after the route saw it: the
   * principal of a created plant, `principal: undefined` for a request without a token, nothing for
   * a request the route passed on (`GET {url}/plants`, which the host answers 200).
   */
  expectPrincipalSeen(
    url: string,
    seen: readonly ({ readonly principal?: Principal | undefined } | undefined)[],
  ): Promise<void>;
  /**
   * Sends `POST {url}{path}` with a bound token and a proof for `accepted`, then for `refused`:
   * expects 200, then 401 because the proof's `htu` is not the request URL.
   */
  expectProofUrl(url: string, path: string, accepted: string, refused: string): Promise<void>;
  /**
   * Expects an adapter's `protectedResourceMetadata` to throw a TypeError at once for a service made
   * without `resourceMetadata`.
   */
  expectMetadataNeedsOption(protectedResourceMetadata: (service: PlantService) => unknown): void;
  /**
   * Creates a plant at `url` and expects the host's error handler to answer it: 500
   * `{host: 'error handler', message}`, its one call in `errors`. For a route over
   * {@link brokenService}.
   */
  expectHostErrorHandler(url: string, errors: readonly unknown[], message: string): Promise<void>;
  /**
   * Expects an "existing" app's own routes to work beside the route: `GET /plants` answers
   * `{host: 'plant list'}`, `POST /plants/extra` the host's 404 `{host: 'not found'}`, and
   * `GET /boom` the host's error handler, 500 `{host: 'error handler', message: 'host failure'}`.
   */
  expectHostRoutes(url: string): Promise<void>;
}

/**
 * A service whose `handle` rejects with `Error('adapter bug')`, which the real one never does: for
 * checking that an adapter hands such a failure to the host's error handling. It inherits the
 * service's brand.
 *
 * @param service - the real service
 * @returns the broken one
 */
export function brokenService(service: PlantService): PlantService {
  return Object.create(service, {
    handle: { value: () => Promise.reject(new Error('adapter bug')) },
  }) as PlantService;
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
  // What the routes log (a 5xx a test provokes, a parser's warning) is kept here, not printed.
  const logger = capturedLogger();

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
    logger,
    auth,
    options: (extra = {}) => ({ store: memoryStore(), auth: auth(), logger, ...extra }),
    dpopOptions: (extra = {}) => ({
      store: memoryStore(),
      logger,
      auth: jwtBearer({
        jwksUri: issuer.jwksUri,
        issuer: issuer.issuer,
        audience: `${PUBLIC_URL}/plants`,
        requiredScopes: [SCOPE],
        dpop: dpopBinding(),
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
    async expectPrincipalSeen(url, seen) {
      expect((await postPlant(url, token, '{"id":1,"name":"a"}')).status).toBe(200);
      expect(seen[0]?.principal?.subject).toBe('gardener');
      expect(seen[0]?.principal?.scopes).toEqual([SCOPE]);
      const anonymous = await send(url, {
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(anonymous.status).toBe(401);
      expect(seen[1]).toEqual({ principal: undefined });
      expect((await send(url, { method: 'GET' })).status).toBe(200);
      expect(seen).toHaveLength(3);
      expect(seen[2]).toBeUndefined();
    },
    async expectHostRoutes(url) {
      const list = await send(url, { method: 'GET' });
      expect([list.status, list.json]).toEqual([200, { host: 'plant list' }]);
      const extra = await postPlant(url, token, '{}', { path: '/plants/extra' });
      expect([extra.status, extra.json]).toEqual([404, { host: 'not found' }]);
      const boom = await send(url, { method: 'GET', path: '/boom' });
      const failure = { host: 'error handler', message: 'host failure' };
      expect([boom.status, boom.json]).toEqual([500, failure]);
    },
    async expectHostErrorHandler(url, errors, message) {
      const reply = await postPlant(url, token, '{"id":1,"name":"a"}');
      expect([reply.status, reply.json]).toEqual([500, { host: 'error handler', message }]);
      expect(errors).toHaveLength(1);
    },
    expectMetadataNeedsOption(protectedResourceMetadata) {
      const service = createPlantService({ store: memoryStore(), auth: auth() });
      expect(() => protectedResourceMetadata(service)).toThrow(
        new TypeError(
          'Plantstore: option "resourceMetadata" must be set on the service (true, or { resource, … }) for protectedResourceMetadata(service) to serve RFC 9728 metadata; received nothing',
        ),
      );
    },
    async expectProofUrl(url, path, accepted, refused) {
      const client = await createDpopClient();
      const post = async (htu: string) =>
        send(url, {
          path,
          body: '{"id":1,"name":"Fern"}',
          headers: {
            ...(await client.headers(
              await issuer.sign({ aud: `${PUBLIC_URL}/plants`, scope: SCOPE }, { boundTo: client }),
              { url: htu },
            )),
            'content-type': 'application/json',
          },
        });
      expect((await post(accepted)).status).toBe(200);
      const reply = await post(refused);
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toContain(
        'error_description="The DPoP proof htu is not the request URL"',
      );
    },
  };
}
