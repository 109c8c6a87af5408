import { fileURLToPath } from 'node:url';
import { describeExampleServer, startRuntime } from '@plantstore/http-suite';

const cwd = fileURLToPath(new URL('..', import.meta.url));

for (const format of ['2.0', '1.0']) {
  describeExampleServer(
    `the Lambda example, payload ${format}, behind the local API Gateway stand-in`,
    (env) =>
      startRuntime({
        binary: process.execPath,
        args: ['--import', 'tsx', 'src/server.ts'],
        cwd,
        env: { ...env, PLANTSTORE_PAYLOAD: format },
      }),
    'memory',
  );
}
