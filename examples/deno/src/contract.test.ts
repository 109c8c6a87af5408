import { fileURLToPath } from 'node:url';
import {
  describeHttpContract,
  remoteTarget,
  requireRuntime,
  type RuntimeProcess,
  runtimeDecides,
  startRuntime,
} from '@plantstore/http-suite';
import { describe, expect, it } from 'vitest';

const deno = requireRuntime({ it }, 'deno', 'the HTTP contract on Deno', import.meta.url);
const cwd = fileURLToPath(new URL('..', import.meta.url));

describe.skipIf(deno === undefined)(`Deno ${deno?.version}`, () => {
  // Every host the suite starts, so that their output can be checked once the cases have run.
  const hosts: RuntimeProcess[] = [];

  describeHttpContract(
    'fetch entry on Deno.serve',
    remoteTarget(
      async (env) => {
        const host = await startRuntime({
          binary: deno!.path,
          // Deno's default, the legacy abort: the one under which reading request.signal warns.
          args: ['run', '--allow-net=127.0.0.1', '--allow-env', 'src/contract-host.ts'],
          cwd,
          env,
        });
        hosts.push(host);
        return host;
      },
      { passesOn: false, mountPath: '/api' },
    ),
    { decides: runtimeDecides('deno') },
  );

  it("prints no warning: the route never reads Deno's request.signal", () => {
    expect(hosts.length).toBeGreaterThan(0);
    for (const host of hosts) {
      expect(host.output()).not.toContain('request.signal');
      expect(host.output()).not.toMatch(/warn/iu);
    }
  });
});
