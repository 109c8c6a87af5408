import type { KeyObject } from 'node:crypto';
import { expectTypeOf } from 'vitest';
import { type JwtBearer, jwtBearer, type JwtBearerOptions } from '../jwt-bearer';
import { dpopBinding } from '../../dpop/dpop-binding';
import { certificateBinding } from '../../mtls/mtls-options';

// Type tests, checked by `tsc -p packages/core/tsconfig.json` (never run): the forms of
// `JwtBearerOptions` mirror the rules `jwtBearer` enforces at run time (jwt-bearer-options.test.ts).
declare const secret: string;
declare const publicKey: KeyObject;
declare const jwksUri: string;
declare const issuer: string;
declare const audience: string;
declare const fetchJwks: typeof fetch;

// Every valid form compiles: a key of one's own with or without issuer and audience, a JWKS with
// both, the profile with both, several issuers each with its own key.
expectTypeOf(jwtBearer({ secret })).toEqualTypeOf<JwtBearer>();
jwtBearer({ secret: new TextEncoder().encode(secret), issuer: 'billing', requiredScopes: ['a'] });
jwtBearer({ publicKey, algorithms: ['ES256'], audience });
jwtBearer({ publicKey: '-----BEGIN PUBLIC KEY-----', issuer, audience, profile: 'rfc9068' });
jwtBearer({ jwksUri, issuer, audience, jwks: { timeoutMs: 1000 }, fetch: fetchJwks });
jwtBearer({
  jwksUri: new URL(jwksUri),
  issuer: [issuer],
  audience: [audience],
  dpop: dpopBinding(),
});
jwtBearer({ jwksUri, issuer, audience, profile: 'rfc9068', cache: false });
jwtBearer({ secret, mtls: certificateBinding() });
jwtBearer({
  jwksUri,
  issuer,
  audience,
  mtls: certificateBinding({ required: true }),
  dpop: dpopBinding(),
});
// @ts-expect-error -- `required` is a boolean
certificateBinding({ required: 'yes' });
// @ts-expect-error -- the options of DPoP before 0.1: `dpopBinding()` makes the value now
jwtBearer({ secret, dpop: true });
// @ts-expect-error -- the options of mTLS before 0.1: `certificateBinding()` makes the value now
jwtBearer({ secret, mtls: { required: true } });
jwtBearer({
  issuers: [
    { issuer, jwksUri, audience, jwks: { cooldownMs: 1000 } },
    { issuer: 'legacy', secret },
    { issuer: 'partner', publicKey, audience, profile: 'rfc9068' },
  ],
  requiredScopes: ['plants:write'],
  fetch: fetchJwks,
});
// Where tokens name no aud (Cognito, Clerk), the client stands in for it; a tenant template, and one
// issuer with two key sources.
jwtBearer({ jwksUri, issuer, clients: ['app'] });
// @ts-expect-error -- ID tokens are accepted only through a provider preset
jwtBearer({ jwksUri, issuer, clients: ['app'], idTokens: true });
jwtBearer({ jwksUri, issuer: `${issuer}/{tenantid}`, audience, tenants: (id) => id !== '' });
jwtBearer({
  issuers: [
    { issuer, secret, algorithms: ['HS256'], audience },
    { issuer, jwksUri, clients: 'app', tenantClaim: 'tid', tenants: ['t1'] },
  ],
});
// @ts-expect-error -- clients go per issuer with issuers
jwtBearer({ issuers: [{ issuer, secret }], clients: 'app' });
// Options built apart still fit, once they name their form.
const options: JwtBearerOptions = { jwksUri, issuer, audience };
jwtBearer(options);

// A key set fetched from a provider needs an audience (and an issuer): a token that provider minted
// for another API would pass otherwise.
// @ts-expect-error -- jwksUri without audience
jwtBearer({ jwksUri, issuer });
// @ts-expect-error -- jwksUri without issuer
jwtBearer({ jwksUri, audience });
// @ts-expect-error -- an issuers entry with jwksUri and no audience
jwtBearer({ issuers: [{ issuer, jwksUri }] });
// @ts-expect-error -- the RFC 9068 profile without audience
jwtBearer({ secret, issuer, profile: 'rfc9068' });
// @ts-expect-error -- an issuers entry with the profile and no audience
jwtBearer({ issuers: [{ issuer, secret, profile: 'rfc9068' }] });

// Exactly one key source, and the JWKS tuning only with a JWKS.
// @ts-expect-error -- no key at all
jwtBearer({ issuer, audience });
// @ts-expect-error -- two keys
jwtBearer({ secret, jwksUri, issuer, audience });
// @ts-expect-error -- jwks without jwksUri
jwtBearer({ secret, jwks: { timeoutMs: 1000 } });
// @ts-expect-error -- fetch without jwksUri
jwtBearer({ publicKey, fetch: fetchJwks });
// @ts-expect-error -- issuers with a key of its own at the top level: keys go per issuer
jwtBearer({ issuers: [{ issuer, secret }], secret });
// @ts-expect-error -- issuers with a top-level audience: audiences go per issuer
jwtBearer({ issuers: [{ issuer, secret }], audience });
