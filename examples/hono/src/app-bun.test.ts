import { fileURLToPath } from 'node:url';
import { describeExampleServer, requireRuntime, startRuntime } from '@plantstore/http-suite';
import { describe, it } from 'vitest';

const cwd = fileURLToPath(new URL('..', import.meta.url));
const bun = requireRuntime({ it }, 'bun', 'the Hono example on Bun', import.meta.url);

describe.skipIf(bun === undefined)(`the Hono example on Bun ${bun?.version}`, () => {
  describeExampleServer(
    'src/server-bun.ts on Bun.serve, on PGlite',
    (env) => startRuntime({ binary: bun!.path, args: ['src/server-bun.ts'], cwd, env }),
    'durable',
  );
});
