import {
  type Authenticator,
  memoryStore,
  type MemoryStore,
  type PlantServiceError,
} from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll } from 'vitest';
import { type Outgoing, postPlant, type Reply } from '../client/send';
import type { ContractSetup } from '../contract-setup';
import type { RegisterCase, RegisterGroup } from './coverage';
import { contractJwtBearer } from '../contract-auth';
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
  readonly id: () => number;
  /** `POST {host}/plants` with the token and `Content-Type: application/json`. */
  readonly post: (body: string | Uint8Array, extra?: Outgoing) => Promise<Reply>;
  /** The JSON-safe auth of the suite's issuer, for targets that build their own `jwtBearer`. */
  readonly setup: () => ContractSetup;
  /** A bearer check of the suite's issuer, requiring `plants:write`. */
  readonly auth: () => Authenticator;
  /** Registers a case under its id and tags, as the run's coverage says. */
  readonly test: RegisterCase;
  /** Registers a group of cases, left out whole when the run covers none of its tags. */
  readonly group: RegisterGroup;
}

/**
 * Registers the hooks that start the suite's issuer and the main host of `target`: a fresh
 * `memoryStore()`, a 300 ms body time-out, and hooks that record every refusal and error.
 *
 * @param target - how to start the entry
 * @param cases - registers each case and group, as the run's coverage says
 * @returns the suite, filled in by `beforeAll`
 */
export function useContractSuite(
  target: ContractTarget,
  cases: { readonly test: RegisterCase; readonly group: RegisterGroup },
): ContractSuite {
  const rejected: PlantServiceError[] = [];
  const errors: PlantServiceError[] = [];
  let nextId = 1000;
  // The fields `beforeAll` fills in; the cases read them inside their tests.
  const suite = {
    target,
    rejected,
    test: cases.test,
    group: cases.group,
    token: '',
  } as Partial<ContractSuite> as Writable<ContractSuite>;
  suite.id = () => nextId++;
  suite.post = (body, extra = {}) => postPlant(suite.host.url, suite.token, body, extra);
  suite.setup = () => ({
    auth: {
      jwksUri: suite.issuer.jwksUri,
      issuer: suite.issuer.issuer,
      audience: suite.issuer.audience,
      requiredScopes: [SCOPE],
    },
  });
  suite.auth = () => contractJwtBearer(suite.setup().auth);

  beforeAll(async () => {
    suite.issuer = await createTokenIssuer();
    suite.store = memoryStore();
    suite.host = await target.start(
      {
        store: suite.store,
        auth: suite.auth(),
        bodyTimeout: 300,
        onRejected: (error) => void rejected.push(error),
        onError: (error) => void errors.push(error),
      },
      suite.setup(),
    );
    suite.token = await suite.issuer.sign({ scope: SCOPE });
  });

  afterAll(async () => {
    await suite.host?.close();
    await suite.issuer?.close();
  });

  return suite;
}

/** `Type` with its fields writable, for an object filled in by hooks. */
export type Writable<Type> = { -readonly [Key in keyof Type]: Type[Key] };
