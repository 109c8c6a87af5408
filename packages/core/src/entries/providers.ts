// `@plantstore/core/providers`: the identity-provider presets (docs/providers.md), each a function
// from the values a provider's console shows to `jwtBearer`'s options. Named exports only;
// `entries.test.ts` locks the list.

export { auth0 } from '../auth/presets/auth0';
export type { Auth0Preset, Auth0PresetOptions } from '../auth/presets/auth0';
export { authentik } from '../auth/presets/authentik';
export type { AuthentikPreset, AuthentikPresetOptions } from '../auth/presets/authentik';
export { clerk } from '../auth/presets/clerk';
export type { ClerkPreset, ClerkPresetOptions } from '../auth/presets/clerk';
export { cognito } from '../auth/presets/cognito';
export type { CognitoPreset, CognitoPresetOptions } from '../auth/presets/cognito';
export { entraId } from '../auth/presets/entra-id';
export type { EntraIdPreset, EntraIdPresetOptions } from '../auth/presets/entra-id';
export { entraIdMultiTenant } from '../auth/presets/entra-id-multi-tenant';
export type { EntraIdMultiTenantPresetOptions } from '../auth/presets/entra-id-multi-tenant';
export type { EntraIdAppOptions, EntraIdTokenVersion } from '../auth/presets/entra-id-versions';
export { firebase } from '../auth/presets/firebase';
export type { FirebasePreset, FirebasePresetOptions } from '../auth/presets/firebase';
export { keycloak } from '../auth/presets/keycloak';
export type { KeycloakPreset, KeycloakPresetOptions } from '../auth/presets/keycloak';
export { okta } from '../auth/presets/okta';
export type { OktaPreset, OktaPresetOptions } from '../auth/presets/okta';
export { oryHydra } from '../auth/presets/ory-hydra';
export type { OryHydraPreset, OryHydraPresetOptions } from '../auth/presets/ory-hydra';
export { supabase } from '../auth/presets/supabase';
export type {
  SupabasePreset,
  SupabasePresetOptions,
  SupabaseProject,
  SupabaseRotationPreset,
} from '../auth/presets/supabase';
export { zitadel } from '../auth/presets/zitadel';
export type { ZitadelPreset, ZitadelPresetOptions } from '../auth/presets/zitadel';
