import type { HostName } from '../host/adapters';
import { hostileCatalog } from './catalog';
import { describeCatalog } from './describe-catalog';
import { describeTokenAttacks } from './describe-token-attacks';
import { LARGE_LIMIT, largeBodyCases } from './large-bodies';

/**
 * Registers every hostile case against one host: the catalog of bodies and headers, the large
 * bodies past the default limit, and the token attacks.
 *
 * @param host - one of `HOSTILE_HOSTS`
 */
export function describeHostileHost(host: HostName): void {
  describeCatalog(host, hostileCatalog);
  // The reader meets its worst inputs only past the default 16 KiB limit.
  describeCatalog(host, largeBodyCases, {
    title: 'bodies up to 1 MiB',
    bodyLimit: LARGE_LIMIT,
    averageCpuMs: 100,
    maxCaseCpuMs: 500,
  });
  describeTokenAttacks(host);
}
