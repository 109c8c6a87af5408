import { fileURLToPath } from 'node:url';
import { describeExampleServer, requireRuntime, startRuntime } from '@plantstore/http-suite';
import { describe, it } from 'vitest';

const cwd = fileURLToPath(new URL('..', import.meta.url));
const bun = requireRuntime({ it }, 'bun', 'the Elysia example on Bun', import.meta.url);

describe.skipIf(bun === undefined)(`the Elysia example on Bun ${bun?.version}`, () => {
  describeExampleServer(
    'src/server.ts, Elysia on Bun.serve',
    (env) => startRuntime({ binary: bun!.path, args: ['src/server.ts'], cwd, env }),
    'memory',
  );
});
