// `pnpm --filter @plantstore/bench events`: what writing the `plant.created` event costs a create
// (issue #50, goal ≤ 15% more) on PostgreSQL (the event in the plant's own INSERT) and Redis (in the
// insert's script). Nothing delivers the events: this is the write's cost alone. How it measures:
// lib/arm-pair-bench.mjs. `--write` (or EVENTS_WRITE=1) puts the figures in
// docs/reference/performance.md. Settings: EVENTS_PAIRS, EVENTS_SECONDS, EVENTS_CONNECTIONS.
import { runArmPairBench } from './lib/arm-pair-bench.mjs';

await runArmPairBench({
  command: 'events',
  prefix: 'EVENTS',
  option: 'events',
  heading: 'Events',
  tells: '15%',
  arms: [
    'A create (`POST /plants`, a fresh id each time) with the `events` option off and on (the event written by',
    "the plant's own INSERT; issue #50, goal ≤ 1.15×):",
  ],
});
