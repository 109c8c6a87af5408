import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { auth0, type Auth0PresetOptions } from '../auth/presets/auth0';
import { authentik, type AuthentikPresetOptions } from '../auth/presets/authentik';
import { clerk, type ClerkPresetOptions } from '../auth/presets/clerk';
import { cognito, type CognitoPresetOptions } from '../auth/presets/cognito';
import { entraId, type EntraIdPresetOptions } from '../auth/presets/entra-id';
import { firebase, type FirebasePresetOptions } from '../auth/presets/firebase';
import { keycloak, type KeycloakPresetOptions } from '../auth/presets/keycloak';
import { okta, type OktaPresetOptions } from '../auth/presets/okta';
import { oryHydra, type OryHydraPresetOptions } from '../auth/presets/ory-hydra';
import { supabase, type SupabasePresetOptions } from '../auth/presets/supabase';
import { zitadel, type ZitadelPresetOptions } from '../auth/presets/zitadel';
import { describeValue } from '../options/check-options';
import { PROVIDER_SHAPES, type ShapeContext, type TokenShape } from './provider-shapes';

/** Each preset the kit mints tokens for, and the options it takes: the same as the preset's. */
export interface ProviderPresetOptions {
  auth0: Auth0PresetOptions;
  entraId: EntraIdPresetOptions;
  okta: OktaPresetOptions;
  cognito: CognitoPresetOptions;
  keycloak: KeycloakPresetOptions;
  firebase: FirebasePresetOptions;
  supabase: SupabasePresetOptions;
  clerk: ClerkPresetOptions;
  zitadel: ZitadelPresetOptions;
  authentik: AuthentikPresetOptions;
  oryHydra: OryHydraPresetOptions;
}

/** The name of a preset the kit mints tokens for: `auth0`, `entraId`, `okta`… */
export type ProviderName = keyof ProviderPresetOptions;

/** Options of {@link ProviderIssuer.sign}. */
export interface ProviderSignOptions {
  /** The scopes granted, written in the provider's own scope claim (`scope`, `scp`). Default none. */
  readonly scopes?: readonly string[];
  /** Claims to add or replace; `undefined` removes one (`{ azp: undefined }`). */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** `exp`, in seconds from now (negative: expired). Default 3600. */
  readonly expiresIn?: number;
}

/** A stand-in for one provider: its tokens, and a `fetch` that serves its key set at the real URL. */
export interface ProviderIssuer {
  /** The preset's `iss`, as the preset itself builds it. */
  readonly issuer: string;
  /** The preset's real key-set URLs, which {@link ProviderIssuer.fetch} answers. */
  readonly jwksUris: readonly string[];
  /**
   * Pass it as `jwtBearer`'s `fetch`: it answers the preset's key-set URLs with this issuer's
   * public keys, and refuses every other URL (a test never reaches the real provider).
   */
  readonly fetch: typeof fetch;
  /** Mints an access token in the provider's shape: its header `typ`, its claims, its scope claim. */
  sign(options?: ProviderSignOptions): Promise<string>;
  /**
   * Mints the provider's ID token for the same user, which the preset refuses (401).
   *
   * @throws TypeError for a provider whose APIs take its ID or session tokens (Firebase, Clerk, Supabase)
   */
  signIdToken(options?: ProviderSignOptions): Promise<string>;
}

const PRESETS: { readonly [N in ProviderName]: (options: ProviderPresetOptions[N]) => object } = {
  auth0,
  entraId,
  okta,
  cognito,
  keycloak,
  firebase,
  supabase,
  clerk,
  zitadel,
  authentik,
  oryHydra,
};

const FACTORY = 'createProviderIssuer';

const list = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.map(String) : [];

// A preset returns one issuer's options, or several (`issuers`: Entra ID's two token versions, a
// Supabase rotation): tokens follow the first, and every key-set URL is served.
function presetValues(preset: object): {
  readonly context: Omit<ShapeContext, 'scopes' | 'id'>;
  readonly jwksUris: string[];
} {
  const entries = ('issuers' in preset ? preset.issuers : [preset]) as Record<string, unknown>[];
  const [main] = entries;
  return {
    context: {
      issuer: String(main?.['issuer']),
      audience: list(main?.['audience']),
      clients: list(main?.['clients']),
    },
    jwksUris: entries.flatMap((entry) => list(entry['jwksUri'])),
  };
}

/**
 * Makes a stand-in for an identity provider that one of the presets configures: tokens in that
 * provider's own shape (header, claims, scope claim), signed with keys made here, and a `fetch`
 * that serves those keys at the preset's real key-set URL. The preset stays in your configuration
 * as it is in production; only `fetch` is added, in tests or a local dev server.
 *
 * @param provider - the preset's name: `auth0`, `entraId`, `okta`, `cognito`, `keycloak`,
 *   `firebase`, `supabase`, `clerk`, `zitadel`, `authentik` or `oryHydra`
 * @param options - the options your configuration passes to that preset
 * @returns the issuer
 * @throws TypeError for another provider name, or the preset's own TypeError for its options, at once
 * @example
 * ```ts
 * const options = { domain: 'dev-abc.us.auth0.com', audience: 'https://plants.example.com' };
 * const provider = await createProviderIssuer('auth0', options);
 * const auth = jwtBearer({ ...auth0(options), requiredScopes: ['plants:write'], fetch: provider.fetch });
 * const token = await provider.sign({ scopes: ['plants:write'] });
 * ```
 */
export function createProviderIssuer<N extends ProviderName>(
  provider: N,
  options: ProviderPresetOptions[N],
): Promise<ProviderIssuer> {
  if (typeof provider !== 'string' || !Object.hasOwn(PRESETS, provider)) {
    const names = Object.keys(PRESETS).join(', ');
    const received =
      typeof provider === 'string' ? JSON.stringify(provider) : describeValue(provider);
    throw new TypeError(`${FACTORY}: provider must be one of ${names}; received ${received}`);
  }
  // The preset checks its options now, so a mistake throws here rather than in a later await.
  return startIssuer(provider, presetValues(PRESETS[provider](options)));
}

async function startIssuer(
  provider: ProviderName,
  { context, jwksUris }: ReturnType<typeof presetValues>,
): Promise<ProviderIssuer> {
  const shape = PROVIDER_SHAPES[provider];
  const alg = 'algorithm' in shape ? shape.algorithm : 'RS256';
  const pair = await generateKeyPair(alg);
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(pair.publicKey)), kid, use: 'sig', alg };
  const jwks = JSON.stringify({ keys: [jwk] });

  const mint = async (make: (c: ShapeContext) => TokenShape, signOptions: ProviderSignOptions) => {
    const scopes = signOptions.scopes ?? [];
    const { typ, claims } = make({ ...context, scopes, id: randomUUID() });
    const now = Math.floor(Date.now() / 1000);
    const all: Record<string, unknown> = { iss: context.issuer, ...claims, ...signOptions.claims };
    for (const [name, value] of Object.entries(all)) if (value === undefined) delete all[name];
    return new SignJWT({ iat: now, exp: now + (signOptions.expiresIn ?? 3600), ...all })
      .setProtectedHeader({ alg, kid, ...(typ === undefined ? {} : { typ }) })
      .sign(pair.privateKey);
  };

  // Typed as the runtime's own fetch (Bun's carries `preconnect`), which jwtBearer's option names.
  const served = ((input: string | URL | Request): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if (!jwksUris.includes(url)) {
      const reason = `${FACTORY}(${provider}) serves only ${jwksUris.join(' and ')}, not ${url}`;
      return Promise.reject(new TypeError(reason));
    }
    const headers = { 'content-type': 'application/json' };
    return Promise.resolve(new Response(jwks, { status: 200, headers }));
  }) as typeof fetch;

  return {
    issuer: context.issuer,
    jwksUris,
    fetch: served,
    sign: (signOptions = {}) => mint(shape.access, signOptions),
    signIdToken(signOptions = {}) {
      const id = 'id' in shape ? shape.id : undefined;
      if (id === undefined) {
        const why = `${provider}'s APIs take its ID or session tokens: there is no other kind to refuse`;
        return Promise.reject(new TypeError(`${FACTORY}: ${why}.`));
      }
      return mint(id, signOptions);
    },
  };
}
