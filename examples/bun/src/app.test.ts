import { fileURLToPath } from 'node:url';
import { describeExampleServer, requireRuntime, startRuntime } from '@plantstore/http-suite';
import { describe, it } from 'vitest';

const bun = requireRuntime({ it }, 'bun', 'the Bun example', import.meta.url);
const cwd = fileURLToPath(new URL('..', import.meta.url));

describe.skipIf(bun === undefined)(`the Bun example on Bun ${bun?.version}`, () => {
  describeExampleServer(
    'src/server.ts under bun, on PGlite',
    (env) => startRuntime({ binary: bun!.path, args: ['src/server.ts'], cwd, env }),
    'durable',
  );
});
