import type { PlantServiceOptions } from '@plantstore/core';
import type { ContractSetup } from '../contract-setup';

/** A running host application with the route mounted. */
export interface ContractHost {
  /** Where the route is mounted, e.g. `http://127.0.0.1:41234/api`; the route is `{url}/plants`. */
  readonly url: string;
  close(): Promise<void>;
}

/** How the suite starts the entry under test. */
export interface ContractTarget {
  /**
   * Starts a host with the route built from these options. When `passesOn` is true, the host answers
   * every request that reaches it past the route with 200 and the text `host:<METHOD> <path>`.
   * `setup` carries the auth settings `options.auth` was made from, for a target that runs the route in
   * another process (Bun, Deno) and builds its own there; in-process targets ignore it.
   */
  start(options: PlantServiceOptions, setup?: ContractSetup): Promise<ContractHost>;
  /** Adapters pass other requests on to the host; the stand-alone entries answer 404 or 405. */
  readonly passesOn: boolean;
}
