// `pnpm --filter @plantstore/bench tenants`: what ids per tenant cost a create (issue #49, goal
// ≤ 5% more), on PostgreSQL and Redis, the `tenant` option reading the token's `sub`. How it measures:
// lib/arm-pair-bench.mjs. `--write` (or TENANTS_WRITE=1) puts the figures in
// docs/reference/performance.md. Settings: TENANTS_PAIRS, TENANTS_SECONDS, TENANTS_CONNECTIONS.
import { runArmPairBench } from './lib/arm-pair-bench.mjs';

await runArmPairBench({
  command: 'tenants',
  prefix: 'TENANTS',
  option: 'tenant',
  heading: 'Tenants',
  tells: '5%',
  arms: [
    'A create (`POST /plants`, a fresh id each time) with ids per tenant off and on (the `tenant` option reading',
    "the token's `sub`; issue #49, goal ≤ 1.05×):",
  ],
});
