import {
  type Authenticator,
  jwtBearer,
  memoryStore,
  type MemoryStore,
  type PlantServiceError,
} from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll } from 'vitest';
import { type Outgoing, postPlant, type Reply } from '../client/send';
import type { ContractSetup } from '../contract-setup';
import type { ContractHost, ContractTarget } from '../hosts/target';

/** The scope the suite's tokens carry and its bearer check requires. */
export const SCOPE = 'plants:write';

/**
 * What the cases of one target share: the entry, its identity provider, and the main host of the
 * suite with its store and what its hooks saw. Read the fields inside a test: they are set once the
 * suite's `beforeAll` has run.
 */
export interface ContractSuite {
  readonly target: ContractTarget;
  readonly issuer: TokenIssuer;
  readonly store: MemoryStore;
  readonly host: ContractHost;
  /** A token with `plants:write`. */
  readonly token: string;
  /** Every error `onRejected` received, in order. */
  readonly rejected: readonly PlantServiceError[];
  /** A fresh plant id for each case that creates one. */
  id(): number;
  /** `POST {host}/plants` with the token and `Content-Type: application/json`. */
  post(body: string | Uint8Array, extra?: Outgoing): Promise<Reply>;
  /** The JSON-safe auth of the suite's issuer, for targets that build their own `jwtBearer`. */
  setup(): ContractSetup;
  /** A bearer check of the suite's issuer, requiring `plants:write`. */
  auth(): Authenticator;
}

/**
 * Registers the hooks that start the suite's issuer and the main host of `target`: a fresh
 * `memoryStore()`, a 300 ms body time-out, and hooks that record every refusal and error.
 *
 * @param target - how to start the entry
 * @returns the suite, filled in by `beforeAll`
 */
export function useContractSuite(target: ContractTarget): ContractSuite {
  let issuer: TokenIssuer;
  let store: MemoryStore;
  let host: ContractHost;
  let token = '';
  const rejected: PlantServiceError[] = [];
  const errors: PlantServiceError[] = [];
  let nextId = 1000;

  const setup = (): ContractSetup => ({
    auth: {
      jwksUri: issuer.jwksUri,
      issuer: issuer.issuer,
      audience: issuer.audience,
      requiredScopes: [SCOPE],
    },
  });
  const auth = (): Authenticator => jwtBearer(setup().auth);

  beforeAll(async () => {
    issuer = await createTokenIssuer();
    store = memoryStore();
    host = await target.start(
      {
        store,
        auth: auth(),
        bodyTimeout: 300,
        onRejected: (error) => void rejected.push(error),
        onError: (error) => void errors.push(error),
      },
      setup(),
    );
    token = await issuer.sign({ scope: SCOPE });
  });

  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  return {
    target,
    get issuer() {
      return issuer;
    },
    get store() {
      return store;
    },
    get host() {
      return host;
    },
    get token() {
      return token;
    },
    rejected,
    id: () => nextId++,
    post: (body, extra = {}) => postPlant(host.url, token, body, extra),
    setup,
    auth,
  };
}
