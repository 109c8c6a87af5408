import { expectTypeOf } from 'vitest';
import { type JwtBearer, jwtBearer } from '../jwt/jwt-bearer';
import type { CertificateBinding, DpopBinding } from '../proof-of-possession';
import { auth0 } from './auth0';
import { authentik } from './authentik';
import { clerk } from './clerk';
import { cognito } from './cognito';
import { entraId } from './entra-id';
import { entraIdMultiTenant } from './entra-id-multi-tenant';
import { firebase } from './firebase';
import { keycloak } from './keycloak';
import { okta } from './okta';
import { oryHydra } from './ory-hydra';
import { supabase, type SupabasePreset, type SupabaseRotationPreset } from './supabase';
import { zitadel } from './zitadel';

// Type tests, checked by `tsc -p packages/core/tsconfig.json` (never run): a preset's result, spread
// and completed with more options, is one of jwtBearer's forms, and the forms' rules still hold.
// What `dpopBinding()` and `certificateBinding()` return (the presets know neither mechanism).
declare const dpopBinding: DpopBinding;
declare const certificateBinding: CertificateBinding;
declare const domain: string;
declare const audience: string;
declare const tenantId: string;
declare const clientId: string;
declare const secret: string;
declare const fetchJwks: typeof fetch;
const requiredScopes = ['plants:write'];

expectTypeOf(
  jwtBearer({ ...auth0({ domain, audience }), requiredScopes }),
).toEqualTypeOf<JwtBearer>();
jwtBearer({ ...entraId({ tenantId, clientId }), requiredScopes, fetch: fetchJwks });
jwtBearer({
  ...entraId({ tenantId, clientId, requestedAccessTokenVersion: 1, appIdUri: 'api://x' }),
});
jwtBearer({ ...entraIdMultiTenant({ clientId, tenants: (tid) => tid !== '' }), requiredScopes });
jwtBearer({ ...okta({ domain, authServerId: 'default' }), requiredScopes, cache: false });
jwtBearer({ ...cognito({ userPoolId: 'eu-west-1_x', clientIds: [clientId] }), requiredScopes });
jwtBearer({ ...keycloak({ url: domain, realm: 'plants', audience }), dpop: dpopBinding });
jwtBearer({ ...firebase({ projectId: 'plants-12345' }), maxTokenAge: '1 hour' });
jwtBearer({ ...supabase({ projectRef: 'abc' }), requiredClaims: ['session_id'] });
jwtBearer({ ...supabase({ url: domain, jwtSecret: secret }), requiredScopes });
jwtBearer({
  ...clerk({ frontendApi: domain, authorizedParties: [domain] }),
  mtls: certificateBinding,
});
jwtBearer({ ...zitadel({ issuer: domain, audience }), requiredScopes });
jwtBearer({ ...authentik({ issuer: domain, audience }), clockTolerance: 10 });
jwtBearer({ ...oryHydra({ issuer: domain, audience }), requiredScopes });
// Supabase's result follows its secret: a JWKS form alone, or several key sources for one issuer.
expectTypeOf(supabase({ projectRef: 'abc' })).toEqualTypeOf<SupabasePreset>();
expectTypeOf(
  supabase({ projectRef: 'abc', jwtSecret: secret }),
).toEqualTypeOf<SupabaseRotationPreset>();

// @ts-expect-error -- a misspelt option of a preset
auth0({ domian: domain, audience });
// @ts-expect-error -- Supabase needs its project ref or its URL
supabase({ jwtSecret: secret });
// @ts-expect-error -- a multi-tenant app names the tenants it serves
entraIdMultiTenant({ clientId });
// @ts-expect-error -- only 1 and 2 are Entra ID token versions
entraId({ tenantId, clientId, requestedAccessTokenVersion: 3 });
// @ts-expect-error -- a preset's key set leaves no room for a second key source
jwtBearer({ ...auth0({ domain, audience }), secret });
// @ts-expect-error -- Entra ID's issuers carry their audiences: none at the top level
jwtBearer({ ...entraId({ tenantId, clientId }), audience });
