import { SignJWT } from 'jose';
import type { ClientCredentials } from './options/introspection-options';

/** The parts of an introspection request that authenticate the resource server. */
export interface AuthenticatedForm {
  readonly headers: Readonly<Record<string, string>>;
  readonly form: URLSearchParams;
}

// A client assertion is used once, right away: a short life limits what a captured one is worth.
const ASSERTION_LIFETIME_S = 60;
const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

// RFC 6749 §2.3.1: the id and the secret are form-encoded before they are joined for Basic.
function formEncoded(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

/**
 * Authenticates an introspection request (RFC 7662 §2.1) the configured way: `client_secret_basic`
 * (an `Authorization: Basic` header), `client_secret_post` (`client_id` and `client_secret` in the
 * form) or `private_key_jwt` (RFC 7523: a client assertion signed with the private key, with a fresh
 * `jti`, `iss` and `sub` the client id, `aud` the issuer, as RFC 7523 bis recommends, and a 60 s life).
 *
 * @param credentials - the checked client credentials
 * @param form - the request's form (`token`, `token_type_hint`), completed here
 * @param now - the clock, in epoch milliseconds
 * @param issuer - the authorization server, the assertion's audience
 * @returns the headers to send and the completed form
 * @example
 * ```ts
 * const { headers, form } = await authenticate(credentials, new URLSearchParams({ token }), Date.now(), issuer);
 * ```
 */
export async function authenticate(
  credentials: ClientCredentials,
  form: URLSearchParams,
  now: number,
  issuer: string,
): Promise<AuthenticatedForm> {
  const { clientId } = credentials;
  if (credentials.method === 'client_secret_basic') {
    const pair = `${formEncoded(clientId)}:${formEncoded(credentials.secret)}`;
    // Form-encoded, so ASCII: btoa takes it as it is, on runtimes without Buffer too.
    return { headers: { authorization: `Basic ${btoa(pair)}` }, form };
  }
  form.set('client_id', clientId);
  if (credentials.method !== 'private_key_jwt') {
    form.set('client_secret', credentials.secret);
    return { headers: {}, form };
  }
  const { key, alg, kid } = credentials.key;
  const issuedAt = Math.floor(now / 1000);
  const assertion = await new SignJWT({ jti: crypto.randomUUID() })
    .setProtectedHeader(kid === undefined ? { alg } : { alg, kid })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(issuer)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ASSERTION_LIFETIME_S)
    .sign(key);
  form.set('client_assertion_type', JWT_BEARER_ASSERTION);
  form.set('client_assertion', assertion);
  return { headers: {}, form };
}
