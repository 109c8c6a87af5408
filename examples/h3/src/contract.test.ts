import { describeHttpContract, remoteTarget, startRuntime } from '@plantstore/http-suite';
import { afterAll, beforeAll } from 'vitest';
import { bundleHost, type BundledHost } from './bundle-host';

// Built once for the file: the suite starts a dozen hosts, each then plain Node.js.
let host: BundledHost;
beforeAll(async () => {
  host = await bundleHost('./contract-host.ts');
}, 60_000);
afterAll(() => host?.remove());

describeHttpContract(
  `h3 v2 on its serve() (srvx), Node.js ${process.version}`,
  remoteTarget(
    (env) => startRuntime({ binary: process.execPath, args: [host.file], cwd: process.cwd(), env }),
    { passesOn: true, mountPath: '/api' },
  ),
  {
    decides: {
      // The route answers through a fetch Response: srvx, not the route, holds the socket, and ends
      // a connection whose body is still arriving before the client has read the answer.
      'raw-socket':
        'srvx, not the route, decides how a connection with an unread body is read and closed',
      // srvx writes the Response's statusText as the reason phrase; the fetch entry's Responses
      // carry none, so the status line is `HTTP/1.1 415 ` (valid HTTP/1.1, but not Node's phrase).
      'raw.fillers':
        "srvx writes the Response's empty statusText as the reason phrase ('HTTP/1.1 415 ')",
      tls: 'the contract host serves plain HTTP, and the route answers through the fetch entry, which has no connection',
    },
  },
);
