import { fileURLToPath } from 'node:url';
import { describeHttpContract, remoteTarget, startRuntime } from '@plantstore/http-suite';

const cwd = fileURLToPath(new URL('..', import.meta.url));

describeHttpContract(
  `Hono on @hono/node-server, Node.js ${process.version}`,
  remoteTarget(
    (env) =>
      startRuntime({
        binary: process.execPath,
        args: ['--import', 'tsx', 'src/contract-host.ts'],
        cwd,
        env,
      }),
    { passesOn: true, mountPath: '/api' },
  ),
);
