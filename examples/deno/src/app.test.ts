import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeExampleServer, requireRuntime, startRuntime } from '@plantstore/http-suite';
import { describe, it } from 'vitest';

const deno = requireRuntime({ it }, 'deno', 'the Deno example', import.meta.url);
const cwd = fileURLToPath(new URL('..', import.meta.url));

describe.skipIf(deno === undefined)(`the Deno example on Deno ${deno?.version}`, () => {
  describeExampleServer(
    'src/server.ts under deno run, on PGlite',
    (env) =>
      startRuntime({
        binary: deno!.path,
        // The least the example needs: the network on loopback, its variables, reading its
        // packages, and writing only its data folder.
        args: [
          'run',
          '--allow-net=127.0.0.1',
          '--allow-env',
          '--allow-read',
          `--allow-write=${dirname(env['PLANTSTORE_DATA'] ?? '.data/plants')}`,
          'src/server.ts',
        ],
        cwd,
        env,
      }),
    'durable',
  );
});
