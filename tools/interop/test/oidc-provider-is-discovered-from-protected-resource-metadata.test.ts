import {
  dpopBinding,
  memoryStore,
  type DpopOptions,
  type PlantServiceOptions,
} from '@plantstore/core';
import { createDpopClient } from '@plantstore/core/testing';
import type { ContractHost, Reply } from '@plantstore/http-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ed25519Signer, type DpopSigner } from '../src/dpop-signer';
import { expectAnswer } from '../src/expect-answer';
import {
  dpopMounts,
  postPlant,
  postPlantWith,
  PUBLIC_URL,
  reach,
  routeUrl,
  type Mount,
} from '../src/plant-hosts';
import { API, CLIENTS } from '../src/provider-config';
import { jwtBearerFor, providerOfThisFile } from '../src/provider-of-this-file';
import { clientCredentials } from '../src/token-endpoint';

// What an OAuth 2.1 or MCP client does knowing nothing but the API's URL: it calls it, reads the
// resource_metadata URL of the 401 challenge (RFC 9728 §5.1), fetches the route's protected-resource
// metadata, then the discovery document of the authorization server it names (RFC 8414), picks a DPoP
// algorithm both support, gets a token for the resource, and calls again.

const ALGS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'].concat([
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
]);
const METADATA_URL = `${PUBLIC_URL}/.well-known/oauth-protected-resource`;
const METADATA_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'public, max-age=3600',
};

/** The provider's authorization server metadata, as far as a client reads it. */
interface ServerMetadata {
  readonly issuer: string;
  readonly token_endpoint: string;
  readonly grant_types_supported: readonly string[];
  readonly token_endpoint_auth_methods_supported: readonly string[];
  readonly scopes_supported: readonly string[];
  readonly dpop_signing_alg_values_supported: readonly string[];
}

/** The route's protected-resource metadata (RFC 9728 §2). */
interface ResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported: readonly string[];
  readonly dpop_signing_alg_values_supported: readonly string[];
  readonly dpop_bound_access_tokens_required: boolean;
}

const provider = providerOfThisFile();

async function getJson(url: string): Promise<{ response: Response; body: unknown }> {
  const response = await fetch(url);
  return { response, body: await response.json() };
}

/** The `resource_metadata` URL every challenge of the answer names. */
function resourceMetadataOf(reply: Reply): string {
  const header = String(reply.headers['www-authenticate']);
  const urls = [...header.matchAll(/resource_metadata="([^"]*)"/gu)].map((match) => match[1]);
  expect(new Set(urls).size).toBe(1);
  return urls[0] ?? '';
}

function service(dpop: DpopOptions): PlantServiceOptions {
  return {
    store: memoryStore(),
    auth: jwtBearerFor(provider, { requiredScopes: ['plants:write'], dpop: dpopBinding(dpop) }),
    publicUrl: PUBLIC_URL,
    resourceMetadata: { resourceName: 'Plants API' },
  };
}

describe.each(dpopMounts)(
  'RFC 9728 metadata and oidc-provider discovery, through $name',
  (mount: Mount) => {
    // The document lives at the host's root, so each service has a host of its own.
    let optional: ContractHost;
    let required: ContractHost;
    beforeAll(async () => {
      optional = await mount.start({ '/discover': service({}) });
      required = await mount.start({ '/required': service({ required: true }) });
    });
    afterAll(() => Promise.all([optional.close(), required.close()]));

    it("publishes the document at the host's root, naming the provider, which lists DPoP algorithms the route accepts", async () => {
      const { response, body } = await getJson(reach(optional, METADATA_URL));
      expect(response.status).toBe(200);
      expect(Object.fromEntries(response.headers)).toMatchObject(METADATA_HEADERS);
      expect(body).toStrictEqual({
        resource: API,
        authorization_servers: [provider.issuer],
        scopes_supported: ['plants:write'],
        bearer_methods_supported: ['header'],
        dpop_signing_alg_values_supported: ALGS,
        dpop_bound_access_tokens_required: false,
        resource_name: 'Plants API',
      });

      // The provider answers both discovery paths with one document, whose issuer is the one named.
      const openid = await getJson(`${provider.issuer}/.well-known/openid-configuration`);
      const oauth = await getJson(`${provider.issuer}/.well-known/oauth-authorization-server`);
      expect(oauth.body).toStrictEqual(openid.body);
      const server = openid.body as ServerMetadata;
      expect(server.issuer).toBe(provider.issuer);
      expect(server.dpop_signing_alg_values_supported).toStrictEqual(['ES256', 'Ed25519', 'EdDSA']);
      expect(server.dpop_signing_alg_values_supported.every((alg) => ALGS.includes(alg))).toBe(
        true,
      );
      expect(server.grant_types_supported).toContain('client_credentials');
      expect(server.token_endpoint_auth_methods_supported).toContain('client_secret_basic');
      // The API's scopes are the resource server's: only the route's document names them.
      expect(server.scopes_supported).toStrictEqual(['openid', 'offline_access']);
    });

    it.each(['ES256', 'EdDSA', 'Ed25519'])(
      'a client that knows only the URL discovers the provider from the 401 and creates a plant, proofs %s',
      async (preferred) => {
        const url = routeUrl('/discover');
        const unauthenticated = await postPlantWith(
          optional,
          '/discover',
          {},
          { id: 1, name: 'Fern' },
        );
        expectAnswer(unauthenticated, 401, {
          error: 401,
          message: 'A bearer token is required in the Authorization header.',
        });
        expect(unauthenticated.headers['www-authenticate']).toBe(
          `Bearer realm="plantstore", resource_metadata="${METADATA_URL}", ` +
            `DPoP realm="plantstore", algs="${ALGS.join(' ')}", resource_metadata="${METADATA_URL}"`,
        );

        const metadataUrl = resourceMetadataOf(unauthenticated);
        const resource = (await getJson(reach(optional, metadataUrl))).body as ResourceMetadata;
        // RFC 9728 §3.3: the document is for the resource the client called.
        expect(url.startsWith(`${resource.resource}/`)).toBe(true);
        const [issuer = ''] = resource.authorization_servers;
        const server = (await getJson(`${issuer}/.well-known/oauth-authorization-server`))
          .body as ServerMetadata;
        // RFC 8414 §3.3: the issuer in the document is the one it was fetched for.
        expect(server.issuer).toBe(issuer);
        const common = server.dpop_signing_alg_values_supported.filter((alg) =>
          resource.dpop_signing_alg_values_supported.includes(alg),
        );
        expect(common).toStrictEqual(['ES256', 'Ed25519', 'EdDSA']);
        expect(common).toContain(preferred);

        const signer: DpopSigner =
          preferred === 'Ed25519'
            ? ed25519Signer(await createDpopClient('EdDSA'))
            : await createDpopClient(preferred as 'ES256' | 'EdDSA');
        const response = await clientCredentials(
          issuer,
          CLIENTS.es256,
          { scope: resource.scopes_supported.join(' '), resource: resource.resource },
          { dpop: signer, tokenEndpoint: server.token_endpoint },
        );
        expect(response).toMatchObject({ token_type: 'DPoP', scope: 'plants:write' });
        const headers = await signer.headers(response.access_token, { url });
        expectAnswer(
          await postPlantWith(optional, '/discover', headers, { id: 1, name: 'Fern' }),
          200,
          {
            name: 'Fern',
          },
        );
      },
    );

    it('with required: true, says so in the document and the challenge, and only a bound token passes', async () => {
      const { body } = await getJson(reach(required, METADATA_URL));
      expect(body).toMatchObject({ resource: API, dpop_bound_access_tokens_required: true });

      const bearer = await clientCredentials(provider.issuer, CLIENTS.es256, {
        scope: 'plants:write',
      });
      const refused = await postPlant(required, '/required', bearer.access_token, {
        id: 1,
        name: 'Fern',
      });
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe(
        `DPoP realm="plantstore", error="invalid_token", ` +
          `error_description="This resource accepts only DPoP-bound tokens", ` +
          `algs="${ALGS.join(' ')}", resource_metadata="${METADATA_URL}"`,
      );

      const client = await createDpopClient('ES256');
      const bound = await clientCredentials(
        provider.issuer,
        CLIENTS.es256,
        { scope: 'plants:write' },
        { dpop: client },
      );
      const headers = await client.headers(bound.access_token, { url: routeUrl('/required') });
      expectAnswer(
        await postPlantWith(required, '/required', headers, { id: 1, name: 'Fern' }),
        200,
        {
          name: 'Fern',
        },
      );
    });
  },
);
