import { certificateBinding, dpopBinding, type JwtBearer, jwtBearer } from '@plantstore/core';
import type { ContractAuth } from './contract-setup';

/**
 * The `jwtBearer` a {@link ContractAuth} describes: its JSON-safe `dpop` and `mtls` turned into the
 * `dpopBinding()` and `certificateBinding()` values `jwtBearer` takes, in whichever process builds it.
 *
 * @param auth - the suite's JSON-safe auth
 * @returns the authenticator
 * @example
 * ```ts
 * createPlantService({ store: memoryStore(), auth: contractJwtBearer(setup.auth) });
 * ```
 */
export function contractJwtBearer(auth: ContractAuth): JwtBearer {
  const { dpop, mtls, ...rest } = auth;
  return jwtBearer({
    ...rest,
    ...(dpop === undefined ? {} : { dpop: dpopBinding(dpop) }),
    ...(mtls === undefined || mtls === false
      ? {}
      : { mtls: certificateBinding(mtls === true ? {} : mtls) }),
  });
}
