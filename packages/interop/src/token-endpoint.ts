import { API, CLIENTS, REDIRECT_URI, type Client } from './provider-config';

const FORM = 'application/x-www-form-urlencoded';

/** The token endpoint's answer (RFC 6749 §5.1), as far as the tests read it. */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in: number;
  readonly scope?: string;
  readonly id_token?: string;
}

/**
 * Posts a token request to the provider's token endpoint, authenticating the client with HTTP Basic
 * (`client_secret_basic`) or in the form (`client_secret_post`), as the client is registered.
 */
async function tokenRequest(
  issuer: string,
  client: Client,
  form: Record<string, string>,
): Promise<TokenResponse> {
  const body = new URLSearchParams(form);
  const headers: Record<string, string> = { 'content-type': FORM };
  if (client.auth === 'basic') {
    // RFC 6749 §2.3.1: the id and the secret are form-encoded before they are joined.
    const pair = `${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`;
    headers['authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    body.set('client_id', client.id);
    body.set('client_secret', client.secret);
  }
  const response = await fetch(`${issuer}/token`, { method: 'POST', headers, body });
  const answer = (await response.json()) as TokenResponse & { error?: string };
  if (response.status !== 200 || answer.token_type !== 'Bearer') {
    throw new Error(`The token endpoint answered ${response.status}: ${JSON.stringify(answer)}`);
  }
  return answer;
}

/**
 * Gets an access token with the client credentials grant, for a resource (RFC 8707).
 *
 * @param issuer - the provider
 * @param client - one of the machine clients
 * @param request - the scope asked for, and the resource (default the API)
 * @returns the token endpoint's answer
 */
export function clientCredentials(
  issuer: string,
  client: Client,
  request: { readonly scope: string; readonly resource?: string },
): Promise<TokenResponse> {
  return tokenRequest(issuer, client, {
    grant_type: 'client_credentials',
    scope: request.scope,
    resource: request.resource ?? API,
  });
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
