// `@plantstore/core/providers`: the identity-provider presets (docs/guides/providers.md), each a function
// from the values a provider's console shows to `jwtBearer`'s options, with what it takes and what
// it returns. Named exports only; `entries.test.ts` locks the list.

export { auth0, type Auth0Preset, type Auth0PresetOptions } from '../auth/presets/auth0';
export {
  authentik,
  type AuthentikPreset,
  type AuthentikPresetOptions,
} from '../auth/presets/authentik';
export { clerk, type ClerkPreset, type ClerkPresetOptions } from '../auth/presets/clerk';
export { cognito, type CognitoPreset, type CognitoPresetOptions } from '../auth/presets/cognito';
export { entraId, type EntraIdPreset, type EntraIdPresetOptions } from '../auth/presets/entra-id';
export {
  entraIdMultiTenant,
  type EntraIdMultiTenantPresetOptions,
} from '../auth/presets/entra-id-multi-tenant';
export type { EntraIdAppOptions, EntraIdTokenVersion } from '../auth/presets/entra-id-versions';
export {
  firebase,
  type FirebasePreset,
  type FirebasePresetOptions,
} from '../auth/presets/firebase';
export {
  keycloak,
  type KeycloakPreset,
  type KeycloakPresetOptions,
} from '../auth/presets/keycloak';
export { okta, type OktaPreset, type OktaPresetOptions } from '../auth/presets/okta';
export {
  oryHydra,
  type OryHydraPreset,
  type OryHydraPresetOptions,
} from '../auth/presets/ory-hydra';
export {
  supabase,
  type SupabasePreset,
  type SupabasePresetOptions,
  type SupabaseProject,
  type SupabaseRotationPreset,
} from '../auth/presets/supabase';
export { zitadel, type ZitadelPreset, type ZitadelPresetOptions } from '../auth/presets/zitadel';
