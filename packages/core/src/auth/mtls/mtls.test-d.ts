import { expectTypeOf } from 'vitest';
import type { AcceptedCredentials, AuthRequest } from '../authenticator';
import type { ClientCertificate } from './client-certificate';
import { certificateThumbprint } from './certificate-thumbprint';

// Type tests of the RFC 8705 surface, checked by `tsc -p packages/core/tsconfig.json` (never run).
declare const der: Uint8Array;

expectTypeOf(certificateThumbprint(der)).toEqualTypeOf<string>();
expectTypeOf(certificateThumbprint('-----BEGIN CERTIFICATE-----')).toEqualTypeOf<string>();
expectTypeOf<AcceptedCredentials['mtls']>().toEqualTypeOf<
  { readonly required: boolean } | undefined
>();
expectTypeOf<AuthRequest['clientCertificate']>().toEqualTypeOf<ClientCertificate | undefined>();
expectTypeOf<ClientCertificate>().toEqualTypeOf<{
  readonly der: Uint8Array;
  readonly thumbprint: string;
}>();
