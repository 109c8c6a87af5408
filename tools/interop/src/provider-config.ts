import { createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import { errors, type Configuration, type JWK, type KoaContextWithOIDC } from 'oidc-provider';

/** The API's resource indicator, and the audience its access tokens carry. */
export const API = 'https://plants.example.com';
/** Another API of the same provider: its tokens must never pass at ours. */
export const OTHER_API = 'https://pots.example.com';
/** Seconds an access token lives, short enough to read its expiry in the tests. */
export const ACCESS_TOKEN_TTL = 300;

/** A client registered at the provider, and how it authenticates at the token endpoint. */
export type Client =
  | {
      readonly id: string;
      readonly secret: string;
      /** `client_secret_basic` or `client_secret_post`. */
      readonly auth: 'basic' | 'post';
    }
  | {
      readonly id: string;
      /** `tls_client_auth` (RFC 8705 §2.1): the certificate on the TLS connection, no secret. */
      readonly auth: 'tls';
    };

/**
 * The subject of the test set's `client` certificate (`testCertificates()` of
 * @plantstore/http-suite), as RFC 4514 writes it: the certificate client is registered with it.
 */
export const CLIENT_CERTIFICATE_DN = 'CN=Plantstore Test Client';

/** The clients registered at the provider. */
export const CLIENTS = {
  /** Machine to machine, `client_secret_basic`; its access tokens are signed RS256. */
  rs256: { id: 'plants-writer-rs256', secret: 'a-secret-of-the-rs256-client', auth: 'basic' },
  /** Machine to machine, `client_secret_post`; its access tokens are signed ES256. */
  es256: { id: 'plants-writer-es256', secret: 'a-secret-of-the-es256-client', auth: 'post' },
  /**
   * The API registered as a client of its own (the usual Keycloak set-up): its client id is the API's
   * audience, so every ID token issued to it carries that audience.
   */
  api: { id: API, secret: 'a-secret-of-the-api-client', auth: 'basic' },
  /**
   * Registered with `dpop_bound_access_tokens: true`: the provider issues it DPoP-bound tokens only,
   * and refuses its token requests that carry no proof.
   */
  dpopOnly: { id: 'plants-writer-dpop-only', secret: 'a-secret-of-the-dpop-client', auth: 'basic' },
  /** The provider requires its own server nonce (RFC 9449 §8) in this client's token-request proofs. */
  nonce: { id: 'plants-writer-nonce', secret: 'a-secret-of-the-nonce-client', auth: 'basic' },
  /**
   * Authenticates with the certificate of {@link CLIENT_CERTIFICATE_DN}, issued by the CA the
   * provider's TLS server trusts (`tls_client_auth`), and registered with
   * `tls_client_certificate_bound_access_tokens: true`: its tokens are bound to that certificate.
   */
  certificate: { id: 'plants-writer-certificate', auth: 'tls' },
  /** Machine to machine, `client_secret_basic`; its access tokens are opaque (introspected). */
  opaque: { id: 'plants-writer-opaque', secret: 'a-secret-of-the-opaque-client', auth: 'basic' },
} as const satisfies Readonly<Record<string, Client>>;

/**
 * A resource server that introspects with `private_key_jwt` (RFC 7523): registered with the public
 * half of {@link INTROSPECTOR_KEY}. The API client introspects too, with `client_secret_basic`.
 */
export const INTROSPECTOR_ID = 'plants-api-introspector';
/** The private key {@link INTROSPECTOR_ID} signs its client assertions with (P-256). */
export const INTROSPECTOR_KEY: KeyObject = generateKeyPairSync('ec', {
  namedCurve: 'P-256',
}).privateKey;
/** The clients the provider answers introspection requests of: the resource servers. */
const INTROSPECTORS = new Set<string>([CLIENTS.api.id, INTROSPECTOR_ID]);

/** Where the authorization-code flow of the API client returns; never followed. */
export const REDIRECT_URI = `${API}/callback`;

/** The private signing keys of one generation of the provider: an RSA and a P-256 key. */
export interface SigningKeys {
  readonly rsa: JWK;
  readonly ec: JWK;
}

/**
 * Makes fresh signing keys, with `kid`s that name their generation (`rsa-1`, `ec-1`, then
 * `rsa-2`, …), so a test can tell which key signed a token.
 *
 * @param generation - the key generation, from 1
 */
export function signingKeys(generation: number): SigningKeys {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  return {
    rsa: { ...(rsa.export({ format: 'jwk' }) as JWK), kid: `rsa-${generation}` },
    ec: { ...(ec.export({ format: 'jwk' }) as JWK), kid: `ec-${generation}` },
  };
}

/**
 * The provider's configuration: client credentials for the machine clients, the authorization code
 * flow (with the development login pages oidc-provider ships) for the API client, resource indicators
 * (RFC 8707) so that access tokens for {@link API} are JWTs (RFC 9068) with its scopes, DPoP
 * (RFC 9449): a token request with a proof gets a token bound to the proof's key (`cnf.jkt`), and
 * mutual TLS (RFC 8705): the certificate client's tokens are bound to its certificate (`cnf["x5t#S256"]`).
 *
 * @param keys - the keys the provider signs with and publishes at its `jwks_uri`
 */
export function providerConfiguration(keys: SigningKeys): Configuration {
  const machine = { grant_types: ['client_credentials'], redirect_uris: [], response_types: [] };
  return {
    jwks: { keys: [keys.rsa, keys.ec] },
    clients: [
      { ...machine, client_id: CLIENTS.rs256.id, client_secret: CLIENTS.rs256.secret },
      {
        ...machine,
        client_id: CLIENTS.es256.id,
        client_secret: CLIENTS.es256.secret,
        token_endpoint_auth_method: 'client_secret_post',
      },
      {
        ...machine,
        client_id: CLIENTS.dpopOnly.id,
        client_secret: CLIENTS.dpopOnly.secret,
        dpop_bound_access_tokens: true,
      },
      { ...machine, client_id: CLIENTS.nonce.id, client_secret: CLIENTS.nonce.secret },
      { ...machine, client_id: CLIENTS.opaque.id, client_secret: CLIENTS.opaque.secret },
      {
        ...machine,
        client_id: INTROSPECTOR_ID,
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [createPublicKey(INTROSPECTOR_KEY).export({ format: 'jwk' })] },
      },
      {
        ...machine,
        client_id: CLIENTS.certificate.id,
        token_endpoint_auth_method: 'tls_client_auth',
        tls_client_auth_subject_dn: CLIENT_CERTIFICATE_DN,
        tls_client_certificate_bound_access_tokens: true,
      },
      {
        client_id: CLIENTS.api.id,
        client_secret: CLIENTS.api.secret,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [REDIRECT_URI],
      },
    ],
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    // The defaults, and the PKI mutual-TLS method (RFC 8705 §2.1) the certificate client uses.
    clientAuthMethods: [
      'client_secret_basic',
      'client_secret_jwt',
      'client_secret_post',
      'private_key_jwt',
      'none',
      'tls_client_auth',
    ],
    features: {
      clientCredentials: { enabled: true },
      // On by default in oidc-provider 9; set here so that the test reads what the provider runs with.
      // Proofs are accepted signed with dPoPSigningAlgValues, left at its default: ES256, Ed25519, EdDSA.
      dPoP: {
        enabled: true,
        // Nonces are derived from this secret (HKDF of a 60 s step), as the route's are (HMAC of a slot).
        nonceSecret: randomBytes(32),
        requireNonce: (ctx) => ctx.oidc.client?.clientId === CLIENTS.nonce.id,
      },
      // RFC 8705: the client certificate is read from the TLS connection (the provider is served over
      // HTTPS with client certificates by `startProvider({ tls })`; over HTTP there is none).
      mTLS: {
        enabled: true,
        certificateBoundAccessTokens: true,
        tlsClientAuth: true,
        getCertificate: (ctx) => tlsSocket(ctx)?.getPeerX509Certificate(),
        // The handshake checked the chain against the CA the server trusts.
        certificateAuthorized: (ctx) => tlsSocket(ctx)?.authorized === true,
        certificateSubjectMatches: (ctx, property, expected) =>
          property === 'tls_client_auth_subject_dn' && subjectDn(ctx) === expected,
      },
      // RFC 7662 and RFC 7009, for the opaque client's tokens; only resource servers may introspect,
      // and a client may revoke only its own tokens.
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx, client) => Promise.resolve(INTROSPECTORS.has(client.clientId)),
      },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => Promise.resolve(token.clientId === client.clientId),
      },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo(_ctx, resource, client) {
          if (resource !== API && resource !== OTHER_API) throw new errors.InvalidTarget();
          const alg = client.clientId === CLIENTS.es256.id ? 'ES256' : 'RS256';
          return {
            scope: 'plants:read plants:write',
            accessTokenFormat: client.clientId === CLIENTS.opaque.id ? 'opaque' : 'jwt',
            accessTokenTTL: ACCESS_TOKEN_TTL,
            jwt: { sign: { alg } },
          };
        },
      },
    },
    // Set, so that oidc-provider does not print a notice for each default it falls back on.
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      ClientCredentials: ACCESS_TOKEN_TTL,
      IdToken: ACCESS_TOKEN_TTL,
      Interaction: 60,
      Session: 60,
      Grant: 60,
    },
  };
}

function tlsSocket(ctx: KoaContextWithOIDC): TLSSocket | undefined {
  return ctx.socket instanceof TLSSocket ? ctx.socket : undefined;
}

/**
 * The peer certificate's subject as an RFC 4514 string: Node lists the RDNs in the certificate's
 * order, one a line, and RFC 4514 writes them last first. No escaping: the test names need none.
 */
function subjectDn(ctx: KoaContextWithOIDC): string | undefined {
  return tlsSocket(ctx)?.getPeerX509Certificate()?.subject.split('\n').reverse().join(',');
}
