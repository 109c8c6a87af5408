import type { PlantServiceOptions } from '@plantstore/core';

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
   */
  start(options: PlantServiceOptions): Promise<ContractHost>;
  /** Adapters pass other requests on to the host; the stand-alone entries answer 404 or 405. */
  readonly passesOn: boolean;
}
