import { InvalidTokenError } from '../../errors/bearer-errors';
import { isPlantServiceError } from '../../errors/plant-service-error';
import { readLimitedText } from '../read-limited-text';
import { authenticate } from './client-authentication';
import { introspectionMisconfigured, introspectionUnavailable } from './introspection-unavailable';
import type { ClientCredentials } from './options/introspection-options';

// An introspection answer is a few hundred bytes; anything far larger is not one.
const MAX_ANSWER_BYTES = 64 * 1024;

/** An introspection answer (RFC 7662 §2.2): a JSON object, its members unchecked. */
export type IntrospectionAnswer = Readonly<Record<string, unknown>>;

/** What one introspection call needs. */
export interface IntrospectionCall {
  readonly endpoint: URL;
  readonly issuer: string;
  readonly credentials: ClientCredentials;
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
  readonly now: () => number;
}

/**
 * Asks the introspection endpoint about one token (RFC 7662 §2.1): a form POST with `token` and
 * `token_type_hint=access_token`, authenticated as configured, within `timeoutMs`, redirects not
 * followed (the configured endpoint is the only trusted one).
 *
 * @param token - the opaque token
 * @param call - the endpoint, the credentials, the time-out
 * @returns the answer, a JSON object
 * @throws ServiceUnavailableError 503 `introspection_unavailable` when the endpoint cannot be
 *   reached, is slow, answers another status than 200 or something other than a JSON object;
 *   InternalServerError 500 `auth_failed` when it refuses our own credentials (401, 403);
 *   InvalidTokenError 401 `token_type_mismatch` for a 400 `unsupported_token_type` (a JWT at
 *   oidc-provider)
 * @example
 * ```ts
 * const answer = await introspect(token, call); // { active: true, sub: 'alice', … }
 * ```
 */
export async function introspect(
  token: string,
  call: IntrospectionCall,
): Promise<IntrospectionAnswer> {
  const request = new URLSearchParams({ token, token_type_hint: 'access_token' });
  const { headers, form } = await authenticate(call.credentials, request, call.now(), call.issuer);
  let text: string;
  try {
    // Called as a plain function: workerd refuses its global fetch called as another object's method.
    const fetchAnswer = call.fetch;
    const response = await fetchAnswer(call.endpoint.href, {
      method: 'POST',
      signal: AbortSignal.timeout(call.timeoutMs),
      redirect: 'manual',
      headers: {
        ...headers,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw introspectionMisconfigured(
        `The introspection endpoint refused our client credentials (HTTP ${response.status})`,
      );
    }
    text = await readLimitedText(response, MAX_ANSWER_BYTES, 'The introspection');
    if (response.status === 400 && isUnsupportedTokenType(text)) {
      // oidc-provider refuses to introspect a JWT this way (RFC 7009's error): the token, not the
      // provider, is the problem. Configure `jwt` to verify such tokens instead.
      throw new InvalidTokenError(
        'token_type_mismatch',
        'The authorization server does not introspect this kind of token',
      );
    }
    if (response.status !== 200) {
      throw introspectionUnavailable(`The introspection endpoint answered HTTP ${response.status}`);
    }
  } catch (error) {
    if (isPlantServiceError(error)) throw error;
    throw introspectionUnavailable('The introspection endpoint cannot be reached', error);
  }
  return parseAnswer(text);
}

function isUnsupportedTokenType(text: string): boolean {
  try {
    return (JSON.parse(text) as { error?: unknown } | null)?.error === 'unsupported_token_type';
  } catch {
    return false;
  }
}

function parseAnswer(text: string): IntrospectionAnswer {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch (error) {
    throw introspectionUnavailable('The introspection answer is not JSON', error);
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw introspectionUnavailable('The introspection answer is not a JSON object');
  }
  return answer as IntrospectionAnswer;
}
