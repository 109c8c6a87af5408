import { fileURLToPath } from 'node:url';
import { describeHttpContract, remoteTarget, startRuntime } from '@plantstore/http-suite';

const cwd = fileURLToPath(new URL('..', import.meta.url));
// @hono/node-server reads the body into a Request before Hono runs the route.
const READ_FIRST = '@hono/node-server reads the body before the route can refuse it unread';
const LINGER =
  '@hono/node-server, not the route, decides how a connection with a body is read and closed';

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
  {
    decides: {
      'raw.huge': READ_FIRST,
      'raw.huge-415': READ_FIRST,
      // The route answers through a fetch Response: @hono/node-server, not the route, holds the
      // socket and decides how the connection is read and closed.
      'raw.linger': LINGER,
      'metadata.declared-body.get': LINGER,
      'metadata.declared-body.post': LINGER,
      // The trusted Client-Cert header cases run: the route learns the certificate from it.
      tls: 'the contract host serves plain HTTP, and the route answers through the fetch entry, which has no connection',
    },
  },
);
