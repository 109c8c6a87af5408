import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createPlant,
  describeExampleServer,
  describeHttpContract,
  remoteTarget,
  type RuntimeProcess,
  startRuntime,
} from '@plantstore/http-suite';
import { beforeAll, describe, expect, it } from 'vitest';

const cwd = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const { version } = require('@sveltejs/kit/package.json') as { version: string };
const vite = join(dirname(require.resolve('vite/package.json')), 'bin/vite.js');

// adapter-node's own server, as `node build` runs it: it prints the address it listens on.
const start = (env: Readonly<Record<string, string>>): Promise<RuntimeProcess> =>
  startRuntime({
    binary: process.execPath,
    args: ['build'],
    cwd,
    env: { HOST: '127.0.0.1', PORT: '0', ...env },
  });

// What SvelteKit and adapter-node decide before the route (docs/hosts/sveltekit.md).
const CSRF =
  "SvelteKit's CSRF origin check (csrf.checkOrigin, on by default) answers a POST of a form media type (text/plain here) without this site's Origin 403 before the route";
const REPEATED =
  "adapter-node builds the route's Request from Node's req.headers, which keeps only the first of repeated Authorization fields";
const FIRST_1000 =
  "adapter-node builds the route's Request from Node's req.headers, which holds only the first 1000 fields: the Content-Encoding and Content-Length after 1000 others never reach the route, which sees no body";
const CONNECTION =
  'node build, not the route, decides how a connection with a body is read and closed: it resets one whose client is still sending';

describe(`SvelteKit ${version} on @sveltejs/adapter-node`, () => {
  // One build for the example and the contract host; its output is in the error when it fails.
  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [vite, 'build'], {
      cwd,
      maxBuffer: 1 << 24,
    });
  }, 600_000);

  describeExampleServer('the example app on node build', start, 'memory', (example) => {
    it('cuts a repeated Content-Type to the first: JSON, then text/plain, is stored', async () => {
      const reply = await createPlant(example(), '/api', 21, ['application/json', 'text/plain']);
      expect([reply.status, reply.text]).toEqual([200, '{"name":"Front 21"}']);
    });
  });
  describeHttpContract(
    '+server.ts endpoint on node build',
    remoteTarget(
      async (env) => {
        const host = await start(env);
        // An endpoint's module loads on its first request: this GET, which the host passes on, loads
        // the route's before the suite's first request (some cases give the store 100 ms).
        await (await fetch(`${host.origin}/contract/api/plants`)).arrayBuffer();
        return host;
      },
      { passesOn: true, mountPath: '/contract/api' },
    ),
    {
      decides: {
        'exchange.text/plain': CSRF,
        'raw.huge-415': CSRF,
        'limits.media-type': CSRF,
        'exchange.repeated-authorization': REPEATED,
        'auth.repeated-field': REPEATED,
        'raw.fillers': FIRST_1000,
        // A 64 MiB body the route refuses unread: adapter-node's server, not the route, closes that
        // connection, and on a busy machine resets it before the client has read the answer.
        'raw.huge': CONNECTION,
        'raw.linger': CONNECTION,
        'metadata.declared-body.get': CONNECTION,
        'metadata.declared-body.post': CONNECTION,
        tls: 'node build serves plain HTTP, and an endpoint has no connection to read a certificate from',
      },
    },
  );
});
