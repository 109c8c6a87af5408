import { fileURLToPath } from 'node:url';
import {
  describeHttpContract,
  remoteTarget,
  requireRuntime,
  runtimeSkips,
  startRuntime,
} from '@plantstore/http-suite';
import { describe, it } from 'vitest';

const deno = requireRuntime({ it }, 'deno', 'the HTTP contract on Deno', import.meta.url);
const cwd = fileURLToPath(new URL('..', import.meta.url));

describe.skipIf(deno === undefined)(`Deno ${deno?.version}`, () => {
  describeHttpContract(
    'fetch entry on Deno.serve',
    remoteTarget(
      (env) =>
        startRuntime({
          binary: deno!.path,
          args: ['run', '--allow-net=127.0.0.1', '--allow-env', 'src/contract-host.ts'],
          cwd,
          env,
        }),
      { passesOn: false, mountPath: '/api' },
    ),
    { skip: runtimeSkips('deno') },
  );
});
