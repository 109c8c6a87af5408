import type { DpopSigner } from './dpop-signer';
import { API, CLIENTS, REDIRECT_URI, type Client } from './provider-config';

const FORM = 'application/x-www-form-urlencoded';

/** The token endpoint's answer (RFC 6749 §5.1), as far as the tests read it. */
export interface TokenResponse {
  readonly access_token: string;
  /** `Bearer`, or `DPoP` for a token bound to the proof's key (RFC 9449 §5). */
  readonly token_type: string;
  readonly expires_in: number;
  readonly scope?: string;
  readonly id_token?: string;
}

/** What a DPoP token request came back with, beyond the token endpoint's JSON. */
export interface DpopTokenResponse extends TokenResponse {
  /** The provider's latest `DPoP-Nonce` in this exchange, if any: a nonce for the provider only. */
  readonly providerNonce: string | undefined;
  /** Requests made: 2 when the provider first asked for a nonce (`use_dpop_nonce`). */
  readonly requests: number;
}

/** One answer of the token endpoint, whatever its status. */
export interface TokenEndpointReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

/** How a token request is sent: where, with which DPoP key, over which connection. */
export interface TokenRequestOptions {
  /** The token endpoint. Default `{issuer}/token`, where oidc-provider serves it. */
  readonly tokenEndpoint?: string;
  /** Sign a DPoP proof for the request with this client's key, so the token is bound to it. */
  readonly dpop?: DpopSigner;
  /** What sends the request: default the global fetch; a `tlsFetch` presents a client certificate. */
  readonly fetch?: typeof fetch;
}

/**
 * Posts one token request to the provider's token endpoint, authenticating the client with HTTP
 * Basic (`client_secret_basic`), in the form (`client_secret_post`), or by the certificate the
 * connection presents (`tls_client_auth`: `client_id` alone in the form), as the client is registered.
 *
 * @param issuer - the provider
 * @param client - the client
 * @param form - the grant's parameters
 * @param headers - more request headers, such as `DPoP`
 * @param tokenEndpoint - default `{issuer}/token`
 * @param send - default the global fetch
 * @returns the answer, any status
 */
export async function postTokenRequest(
  issuer: string,
  client: Client,
  form: Readonly<Record<string, string>>,
  headers: Readonly<Record<string, string>> = {},
  tokenEndpoint = `${issuer}/token`,
  send: typeof fetch = fetch,
): Promise<TokenEndpointReply> {
  const response = await postAsClient(tokenEndpoint, client, form, headers, send);
  const answer = (await response.json()) as Record<string, unknown>;
  return { status: response.status, headers: response.headers, body: answer };
}

// A form POST authenticated as the client is registered: Basic, in the form, or by its certificate.
function postAsClient(
  endpoint: string,
  client: Client,
  form: Readonly<Record<string, string>>,
  headers: Readonly<Record<string, string>>,
  send: typeof fetch,
): Promise<Response> {
  const body = new URLSearchParams(form);
  const sent: Record<string, string> = { 'content-type': FORM, ...headers };
  if (client.auth === 'basic') {
    // RFC 6749 §2.3.1: the id and the secret are form-encoded before they are joined.
    const pair = `${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`;
    sent['authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    body.set('client_id', client.id);
    if (client.auth === 'post') body.set('client_secret', client.secret);
  }
  return send(endpoint, { method: 'POST', headers: sent, body });
}

/**
 * Revokes an access token at oidc-provider's revocation endpoint (RFC 7009), as its client.
 *
 * @param issuer - the provider
 * @param client - the client the token was issued to
 * @param token - the access token
 * @returns the endpoint's status: 200 when revoked (or unknown, RFC 7009 §2.2)
 */
export async function revokeToken(issuer: string, client: Client, token: string): Promise<number> {
  const form = { token, token_type_hint: 'access_token' };
  const response = await postAsClient(`${issuer}/token/revocation`, client, form, {}, fetch);
  await response.body?.cancel();
  return response.status;
}

/**
 * Gets a token: one request, or with DPoP, a second one when the provider asks for its nonce
 * (RFC 9449 §8: 400 `use_dpop_nonce` with `DPoP-Nonce`, and a new proof that carries it).
 */
async function tokenRequest(
  issuer: string,
  client: Client,
  form: Record<string, string>,
  options: TokenRequestOptions = {},
): Promise<DpopTokenResponse> {
  const { dpop, tokenEndpoint = `${issuer}/token`, fetch: send } = options;
  let nonce: string | undefined;
  for (let requests = 1; ; requests += 1) {
    // A token-request proof has no ath: there is no token yet (RFC 9449 §4.2).
    const headers =
      dpop === undefined
        ? {}
        : {
            dpop: await dpop.proof({
              method: 'POST',
              url: tokenEndpoint,
              ...(nonce !== undefined && { nonce }),
            }),
          };
    const reply = await postTokenRequest(issuer, client, form, headers, tokenEndpoint, send);
    // oidc-provider sends DPoP-Nonce when it asks for one, and on a success only when the proof's
    // nonce was not already its next one.
    const providerNonce = reply.headers.get('dpop-nonce') ?? nonce;
    if (
      dpop !== undefined &&
      requests === 1 &&
      reply.status === 400 &&
      reply.body['error'] === 'use_dpop_nonce' &&
      providerNonce !== undefined
    ) {
      nonce = providerNonce;
      continue;
    }
    const answer = reply.body as unknown as TokenResponse;
    if (reply.status !== 200 || answer.token_type !== (dpop === undefined ? 'Bearer' : 'DPoP')) {
      throw new Error(`The token endpoint answered ${reply.status}: ${JSON.stringify(answer)}`);
    }
    return { ...answer, providerNonce, requests };
  }
}

/**
 * Gets an access token with the client credentials grant, for a resource (RFC 8707); with `dpop`,
 * bound to that client's key (`token_type` `DPoP`, `cnf.jkt` in the token).
 *
 * @param issuer - the provider
 * @param client - one of the machine clients
 * @param request - the scope asked for, and the resource (default the API)
 * @param options - the token endpoint, the DPoP key to bind the token to, and the fetch to send with
 * @returns the token endpoint's answer
 * @example
 * ```ts
 * const { access_token } = await clientCredentials(issuer, CLIENTS.es256, { scope: 'plants:write' }, { dpop });
 * ```
 */
export function clientCredentials(
  issuer: string,
  client: Client,
  request: { readonly scope: string; readonly resource?: string },
  options?: TokenRequestOptions,
): Promise<DpopTokenResponse> {
  return tokenRequest(
    issuer,
    client,
    { grant_type: 'client_credentials', scope: request.scope, resource: request.resource ?? API },
    options,
  );
}

/**
 * Signs a user in to the API client through the authorization code flow, with the development login
 * and consent pages oidc-provider ships (`devInteractions`), and exchanges the code at the token
 * endpoint: six real HTTP requests, cookies carried by hand. The ID token's `aud` is the API client's
 * id, which is the API's audience.
 *
 * @param issuer - the provider
 * @param login - the account to sign in as
 * @returns the token endpoint's answer, with `id_token`
 */
export async function signInToTheApiClient(issuer: string, login: string): Promise<TokenResponse> {
  const cookies = new Map<string, string>();
  const go = async (url: string, form?: Record<string, string>): Promise<string> => {
    const response = await fetch(new URL(url, issuer), {
      method: form === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form !== undefined && { 'content-type': FORM }),
      },
      ...(form !== undefined && { body: new URLSearchParams(form) }),
    });
    await response.body?.cancel();
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.slice(0, cookie.indexOf(';'));
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = response.headers.get('location');
    if (response.status !== 303 || location === null) {
      throw new Error(`${url} answered ${response.status} without a redirect`);
    }
    return location;
  };

  const authorize = new URLSearchParams({
    client_id: CLIENTS.api.id,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: REDIRECT_URI,
    state: 'state-1',
    nonce: 'nonce-1',
  });
  const loginPage = await go(`/auth?${authorize.toString()}`);
  const consentPage = await go(await go(loginPage, { prompt: 'login', login }));
  const callback = await go(await go(consentPage, { prompt: 'consent' }));
  const code = new URL(callback).searchParams.get('code');
  if (code === null || !callback.startsWith(REDIRECT_URI)) {
    throw new Error(`The authorization ended at ${callback}`);
  }
  return tokenRequest(issuer, CLIENTS.api, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
  });
}

/** A JWT's protected header and claims, read without verifying: for assertions on what was issued. */
export function decodeJwt(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
} {
  const [header = '', payload = ''] = token.split('.');
  const read = (part: string) =>
    JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: read(header), payload: read(payload) };
}
