import { fileURLToPath } from 'node:url';
import {
  describeHttpContract,
  remoteTarget,
  requireRuntime,
  runtimeDecides,
  startRuntime,
} from '@plantstore/http-suite';
import { describe, it } from 'vitest';

const cwd = fileURLToPath(new URL('..', import.meta.url));
const bun = requireRuntime({ it }, 'bun', 'the HTTP contract on Hono on Bun', import.meta.url);

describe.skipIf(bun === undefined)(`Bun ${bun?.version}`, () => {
  describeHttpContract(
    'Hono on Bun.serve',
    remoteTarget(
      (env) => startRuntime({ binary: bun!.path, args: ['src/contract-host-bun.ts'], cwd, env }),
      { passesOn: true, mountPath: '/api' },
    ),
    { decides: runtimeDecides('bun'), only: ['mounting'] },
  );
});
