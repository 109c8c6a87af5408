import { expectTypeOf } from 'vitest';
import type { Authenticator } from '../authenticator';
import type { Principal } from '../principal';
import {
  tokenIntrospection,
  type IntrospectionClientAuthentication,
  type TokenIntrospection,
  type TokenIntrospectionOptions,
} from './token-introspection';

// Type tests of the public surface, checked by `tsc -p packages/core/tsconfig.json` (never run).
const base = {
  issuer: 'https://id.example.com',
  clientId: 'api',
  clientSecret: 's',
  audience: 'a',
};

expectTypeOf(tokenIntrospection(base)).toEqualTypeOf<TokenIntrospection>();
expectTypeOf<TokenIntrospection>().toExtend<Authenticator>();
expectTypeOf<TokenIntrospection['verify']>().returns.toEqualTypeOf<Promise<Principal>>();
expectTypeOf<IntrospectionClientAuthentication>().toEqualTypeOf<
  'client_secret_basic' | 'client_secret_post' | 'private_key_jwt'
>();
expectTypeOf<TokenIntrospectionOptions['cache']>().toEqualTypeOf<
  { readonly max?: number; readonly maxAgeMs?: number } | false | undefined
>();
// @ts-expect-error a misspelt option does not compile
tokenIntrospection({ ...base, audiance: 'a' });
// @ts-expect-error nor a method the endpoint is not called with
tokenIntrospection({ ...base, clientAuthentication: 'client_secret_jwt' });
