import { fileURLToPath } from 'node:url';
import { describeExampleServer, startRuntime } from '@plantstore/http-suite';

const cwd = fileURLToPath(new URL('..', import.meta.url));

describeExampleServer(
  `the Hono example on @hono/node-server, Node.js ${process.version}, on PGlite`,
  (env) =>
    startRuntime({
      binary: process.execPath,
      args: ['--import', 'tsx', 'src/server.ts'],
      cwd,
      env,
    }),
  'durable',
);
