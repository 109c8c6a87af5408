import { describeCatalog } from '../../src/hostile/describe-catalog';
import { hostileCatalog } from '../../src/hostile/catalog';
import { LARGE_LIMIT, largeBodyCases } from '../../src/hostile/large-bodies';

describeCatalog('Express 5', hostileCatalog);

// The reader meets its worst inputs only past the default 16 KiB limit.
describeCatalog('Express 5', largeBodyCases, {
  title: 'bodies up to 1 MiB',
  bodyLimit: LARGE_LIMIT,
  averageCpuMs: 100,
  maxCaseCpuMs: 500,
});
