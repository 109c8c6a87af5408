import type { HostCoverage } from '@plantstore/http-suite';
import type { HostName } from '../host/adapters';
import { hostileCatalog } from './catalog';
import { describeCatalog } from './describe-catalog';
import { describeTokenAttacks } from './describe-token-attacks';
import { LARGE_LIMIT, largeBodyCases } from './large-bodies';

/**
 * Registers the hostile cases against one host: the catalog of bodies and headers, the large
 * bodies past the default limit, and the token attacks, each as `coverage` says.
 *
 * @param host - one of `HOSTILE_HOSTS`
 * @param coverage - which cases the host runs (default all of them)
 * @example
 * ```ts
 * describeHostileHost('node:http'); // every case
 * describeHostileHost('Express 5', FRAMEWORK_HOSTILE); // what a framework host can change
 * ```
 */
export function describeHostileHost(host: HostName, coverage: HostCoverage = {}): void {
  describeCatalog(host, hostileCatalog, { coverage });
  // The reader meets its worst inputs only past the default 16 KiB limit.
  describeCatalog(host, largeBodyCases, {
    title: 'bodies up to 1 MiB',
    bodyLimit: LARGE_LIMIT,
    averageCpuMs: 100,
    maxCaseCpuMs: 500,
    coverage,
  });
  describeTokenAttacks(host, coverage);
}

/**
 * What a framework host runs of the hostile cases: every body, header and framing case (the host's
 * request handling can change each), and the misplaced credentials (its headers count); the forged
 * tokens are decided by the verifier alone and run once, on node:http.
 */
export const FRAMEWORK_HOSTILE: HostCoverage = { only: ['hostile-input', 'token-placement'] };
