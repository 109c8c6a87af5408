import { describeCatalog } from '../../src/hostile/describe-catalog';
import { hostileCatalog } from '../../src/hostile/catalog';
import { LARGE_LIMIT, largeBodyCases } from '../../src/hostile/large-bodies';

describeCatalog('Koa 3', hostileCatalog);

// The reader meets its worst inputs only past the default 16 KiB limit.
describeCatalog('Koa 3', largeBodyCases, {
  title: 'bodies up to 1 MiB',
  bodyLimit: LARGE_LIMIT,
  averageCpuMs: 100,
  maxCaseCpuMs: 500,
});
