import type { Reply } from '../../client/send';

// What the DPoP (RFC 9449) and RFC 9728 cases send and expect, to the letter.

export const PUBLIC_URL = 'https://api.example.com';
/** The resource tokens are asked for: their `aud`, and the metadata's `resource`. */
export const RESOURCE = `${PUBLIC_URL}/plants`;
export const METADATA_PATHS = [
  '/.well-known/oauth-protected-resource/plants',
  '/.well-known/oauth-protected-resource',
] as const;
export const METADATA_URL = `${PUBLIC_URL}${METADATA_PATHS[0]}`;
export const ALGS = 'ES256 ES384 ES512 EdDSA Ed25519 PS256 PS384 PS512 RS256 RS384 RS512';
export const SCOPE = 'plants:write';
export const RESOURCE_NAME = 'Plantstore contract';
export const JSON_TYPE = 'application/json; charset=utf-8';
/** Both challenges as every answer without credentials offers them. */
export const BEARER = `Bearer realm="plantstore", resource_metadata="${METADATA_URL}"`;
export const DPOP = `DPoP realm="plantstore", algs="${ALGS}", resource_metadata="${METADATA_URL}"`;

/** The headers the DPoP and metadata answers are compared on, each present or absent as expected. */
export const NAMED_HEADERS = [
  'content-type',
  'cache-control',
  'vary',
  'www-authenticate',
  'dpop-nonce',
  'allow',
] as const;

export interface View {
  readonly status: number;
  readonly headers: Readonly<Record<(typeof NAMED_HEADERS)[number], unknown>>;
  readonly body: string;
}

export function view(reply: Reply): View {
  const headers = Object.fromEntries(NAMED_HEADERS.map((name) => [name, reply.headers[name]]));
  return { status: reply.status, headers: headers as View['headers'], body: reply.text };
}

export function answer(
  status: number,
  headers: Partial<View['headers']>,
  body: unknown,
  route = true,
): View {
  const base = route
    ? { 'content-type': JSON_TYPE, 'cache-control': 'no-store', vary: 'Authorization' }
    : {};
  return {
    status,
    headers: {
      'content-type': undefined,
      'cache-control': undefined,
      vary: undefined,
      'www-authenticate': undefined,
      'dpop-nonce': undefined,
      allow: undefined,
      ...base,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** 401 `invalid_dpop_proof`: the error goes on the DPoP challenge, the request's scheme. */
export function proofRefused(description: string): View {
  return answer(
    401,
    {
      'www-authenticate': `${BEARER}, DPoP realm="plantstore", error="invalid_dpop_proof", error_description="${description}", algs="${ALGS}", resource_metadata="${METADATA_URL}"`,
    },
    { error: 401, message: `The DPoP proof is not valid: ${description}` },
  );
}
