import { describeHttpContract, remoteTarget, startRuntime } from '@plantstore/http-suite';
import { afterAll, beforeAll } from 'vitest';
import { bundleHost, type BundledHost } from './bundle-host';
import type { PayloadFormat } from './local-gateway';

// Built once for the file: the suites start a dozen hosts each, each then plain Node.js.
let host: BundledHost;
beforeAll(async () => {
  host = await bundleHost('./contract-host.ts');
}, 60_000);
afterAll(() => host?.remove());
const GATEWAY_READS_FIRST =
  'API Gateway reads the whole request before it invokes the function, which never sees a slow or unfinished body';

// No Lambda runs here: each request reaches the handler as the event API Gateway would send, through
// the local stand-in (src/local-gateway.ts), which reads the whole request before invoking, as API
// Gateway does. The connection is the gateway's, never the function's.
for (const format of ['2.0', '1.0'] as const satisfies readonly PayloadFormat[]) {
  describeHttpContract(
    `AWS Lambda, payload format ${format} (${format === '2.0' ? 'HTTP API, Function URL' : 'REST API'}), through a local API Gateway stand-in`,
    remoteTarget(
      (env) =>
        startRuntime({
          binary: process.execPath,
          args: [host.file, format],
          cwd: process.cwd(),
          env,
        }),
      { passesOn: false, mountPath: '/api' },
    ),
    {
      decides: {
        'raw-socket': GATEWAY_READS_FIRST,
        // The entry leaves out the route's `Connection: close`: API Gateway has read the whole body
        // and keeps its connections itself (a REST API would rename the field x-amzn-Remapped-…).
        closes:
          "API Gateway owns the connection: the function's result carries no Connection field",
        // A body that stops arriving never reaches the function: API Gateway waits for all of it.
        'auth.before-body': GATEWAY_READS_FIRST,
        'limits.read-timeout': GATEWAY_READS_FIRST,
        tls: 'API Gateway ends TLS; a function gets the client certificate as text in requestContext, never a connection',
      },
      // The two formats differ in how headers, bodies and paths arrive: 1.0 runs what those change.
      ...(format === '1.0' ? { only: ['auth', 'body', 'mounting', 'created'] as const } : {}),
    },
  );
}
