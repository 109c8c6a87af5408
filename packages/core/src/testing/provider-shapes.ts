// Each identity provider's tokens as its documentation shows them (the same header members and
// claims as packages/core/src/auth/presets/fixtures/*.json), built on what its preset returned, so a
// token minted here passes the preset's real configuration and its ID token is refused by it.

/** What a token is built from: the preset's own values and what the test asks for. */
export interface ShapeContext {
  /** The preset's `iss`. */
  readonly issuer: string;
  /** The preset's audiences (its first is the token's), or none. */
  readonly audience: readonly string[];
  /** The clients (`azp`, `client_id`) the preset accepts, or none. */
  readonly clients: readonly string[];
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** A fresh id for `jti`. */
  readonly id: string;
}

/** A token's header members (besides `alg` and `kid`) and claims (besides `iat` and `exp`). */
export interface TokenShape {
  readonly typ?: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

/** One provider: its key type (default RS256), its access token, and its ID token when it has one. */
export interface ProviderShape {
  readonly algorithm?: 'ES256';
  readonly access: (context: ShapeContext) => TokenShape;
  readonly id?: (context: ShapeContext) => TokenShape;
}

const SUBJECT = '8c4f2c61-5d57-4a43-9b1e-2f0c3e4d5a6b';
const CLIENT_GUID = 'c44b4083-3bb0-49c1-b47d-974e53cbdf3c';

// Providers without a scope claim of their own carry what a custom claim or template would add.
const scopeString = ({ scopes }: ShapeContext): Record<string, string> =>
  scopes.length === 0 ? {} : { scope: scopes.join(' ') };
// Most providers name the token type in the header as a plain `JWT`.
const typed = (claims: Readonly<Record<string, unknown>>): TokenShape => ({ typ: 'JWT', claims });
const first = (list: readonly string[], fallback: string): string => list[0] ?? fallback;
const clientOf = (context: ShapeContext): string => first(context.clients, 'test-client');

// Entra ID's two formats: the preset's issuer tells which one the app registration asks for.
function entraId(context: ShapeContext, idToken: boolean): TokenShape {
  const v1 = context.issuer.startsWith('https://sts.windows.net/');
  const tid = /[0-9a-f-]{36}/u.exec(context.issuer)?.[0] ?? '';
  const caller = idToken
    ? {}
    : { [v1 ? 'appid' : 'azp']: CLIENT_GUID, scp: context.scopes.join(' ') };
  const claims = {
    aud: first(context.audience, ''),
    ...caller,
    oid: SUBJECT,
    sub: 'HKZpfaHyWadeOouYlitjrI-KffTm222X5rrV3xDqfKQ',
    tid,
    uti: 'fqiBqXLPj0eQa82S-IYFAA',
    ver: v1 ? '1.0' : '2.0',
    ...(idToken ? { nonce: 'n-0S6_WzA2Mj' } : {}),
  };
  return typed(claims);
}

/** The providers whose tokens the kit mints, by the name of their preset. */
export const PROVIDER_SHAPES = {
  auth0: {
    access: (context) =>
      typed({
        sub: 'auth0|65f1c0ffee0123456789abcd',
        aud: [first(context.audience, ''), `${context.issuer}userinfo`],
        azp: clientOf(context),
        ...scopeString(context),
      }),
    id: (context) =>
      typed({ sub: 'auth0|65f1c0ffee0123456789abcd', aud: clientOf(context), nonce: 'n-0S6' }),
  },
  entraId: {
    access: (context) => entraId(context, false),
    id: (context) => entraId(context, true),
  },
  okta: {
    access: (context) => ({
      claims: {
        ver: 1,
        jti: `AT.${context.id}`,
        aud: first(context.audience, ''),
        cid: '0oaoesxtxmPf08QHk0h7',
        uid: '00uoeu7d6gGm1ODA80h7',
        scp: [...context.scopes],
        sub: 'jane.doe@example.com',
      },
    }),
    id: (context) => ({
      claims: {
        ver: 1,
        jti: `ID.${context.id}`,
        aud: '0oaoesxtxmPf08QHk0h7',
        sub: '00uoeu7d6gGm1ODA80h7',
        nonce: 'Zq7o9tW2aM',
      },
    }),
  },
  cognito: {
    access: (context) => ({
      claims: {
        sub: SUBJECT,
        client_id: clientOf(context),
        token_use: 'access',
        scope: context.scopes.join(' '),
        jti: context.id,
        username: 'test-user',
        version: 2,
      },
    }),
    id: (context) => ({
      claims: {
        sub: SUBJECT,
        aud: clientOf(context),
        token_use: 'id',
        'cognito:username': 'test-user',
        jti: context.id,
      },
    }),
  },
  keycloak: {
    access: (context) =>
      typed({
        jti: context.id,
        aud: [first(context.audience, ''), 'account'],
        sub: SUBJECT,
        typ: 'Bearer',
        azp: 'plants-web',
        scope: ['openid', 'profile', ...context.scopes].join(' '),
      }),
    id: (context) =>
      typed({
        jti: context.id,
        aud: first(context.audience, ''),
        sub: SUBJECT,
        typ: 'ID',
        azp: first(context.audience, ''),
      }),
  },
  firebase: {
    access: (context) =>
      typed({
        aud: first(context.audience, ''),
        sub: 'kD3mZ9qL2xW8vN5tR7yB4cF6hJ1a',
        user_id: 'kD3mZ9qL2xW8vN5tR7yB4cF6hJ1a',
        firebase: { identities: {}, sign_in_provider: 'password' },
        ...scopeString(context),
      }),
  },
  supabase: {
    algorithm: 'ES256',
    access: (context) =>
      typed({
        sub: '123e4567-e89b-12d3-a456-426614174000',
        aud: first(context.audience, 'authenticated'),
        role: 'authenticated',
        aal: 'aal1',
        session_id: context.id,
        is_anonymous: false,
        ...scopeString(context),
      }),
  },
  clerk: {
    access: (context) =>
      typed({
        azp: clientOf(context),
        sid: 'sess_2abcDEFghiJKLmnoPQRstuVWxyz',
        sub: 'user_2abcDEFghiJKLmnoPQRstuVWxyz',
        v: 2,
        ...scopeString(context),
      }),
  },
  zitadel: {
    access: (context) => ({
      claims: {
        aud: [first(context.audience, ''), '249341902216708107'],
        azp: '249341902216708107',
        client_id: '249341902216708107',
        jti: context.id,
        sub: '249341660440412171',
        ...scopeString(context),
      },
    }),
    id: (context) => ({
      claims: {
        aud: [first(context.audience, ''), '249341902216708107'],
        azp: '249341902216708107',
        sub: '249341660440412171',
        amr: ['pwd'],
      },
    }),
  },
  authentik: {
    access: (context) =>
      typed({
        aud: first(context.audience, ''),
        azp: first(context.audience, ''),
        sub: SUBJECT,
        uid: 'Qm7vT2kX9pL4sN8wR1yB6cF3hJ5aD0eG',
        preferred_username: 'jane',
        ...scopeString(context),
      }),
    id: (context) =>
      typed({ aud: first(context.audience, ''), sub: SUBJECT, preferred_username: 'jane' }),
  },
  oryHydra: {
    access: (context) =>
      typed({
        aud: [...context.audience],
        client_id: '9d5c0f0e-5b1e-4d3b-8c2a-6f7e8d9c0b1a',
        ext: {},
        jti: context.id,
        scp: [...context.scopes],
        sub: SUBJECT,
      }),
    id: (context) =>
      typed({
        at_hash: 'Rj4z7nS0Qk2c5xV8yB1mLw',
        aud: ['9d5c0f0e-5b1e-4d3b-8c2a-6f7e8d9c0b1a'],
        jti: context.id,
        sid: '6a5b4c3d-2e1f-4a9b-8c7d-6e5f4a3b2c1d',
        sub: SUBJECT,
      }),
  },
} as const satisfies Readonly<Record<string, ProviderShape>>;
