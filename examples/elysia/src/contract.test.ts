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
const bun = requireRuntime({ it }, 'bun', 'the HTTP contract on Elysia', import.meta.url);

describe.skipIf(bun === undefined)(`Bun ${bun?.version}`, () => {
  describeHttpContract(
    'Elysia on Bun.serve, parse: none',
    remoteTarget(
      (env) => startRuntime({ binary: bun!.path, args: ['src/contract-host.ts'], cwd, env }),
      { passesOn: true, mountPath: '/api' },
    ),
    { decides: runtimeDecides('bun') },
  );
});
