import { fileURLToPath } from 'node:url';
import { describeExampleServer, startRuntime } from '@plantstore/http-suite';

const cwd = fileURLToPath(new URL('..', import.meta.url));

describeExampleServer(
  `the h3 example on toNodeHandler and node:http, Node.js ${process.version}`,
  (env) =>
    startRuntime({
      binary: process.execPath,
      args: ['--import', 'tsx', 'src/server.ts'],
      cwd,
      env,
    }),
  'memory',
);
