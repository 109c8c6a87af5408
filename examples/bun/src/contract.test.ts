import { fileURLToPath } from 'node:url';
import {
  describeHttpContract,
  remoteTarget,
  requireRuntime,
  runtimeDecides,
  startRuntime,
} from '@plantstore/http-suite';
import { describe, it } from 'vitest';

const bun = requireRuntime({ it }, 'bun', 'the HTTP contract on Bun', import.meta.url);
const cwd = fileURLToPath(new URL('..', import.meta.url));

describe.skipIf(bun === undefined)(`Bun ${bun?.version}`, () => {
  describeHttpContract(
    'fetch entry on Bun.serve',
    remoteTarget(
      (env) => startRuntime({ binary: bun!.path, args: ['src/contract-host.ts'], cwd, env }),
      { passesOn: false, mountPath: '/api' },
    ),
    { decides: runtimeDecides('bun') },
  );
});
