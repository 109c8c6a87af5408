import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import {
  createPlant,
  describeExampleServer,
  describeHttpContract,
  type LaunchHost,
  remoteTarget,
  type RuntimeProcess,
  send,
  startRuntime,
} from '@plantstore/http-suite';
import { beforeAll, describe, expect, it } from 'vitest';

/** The contract's cases each runtime of the app decides before the route, by tag or id, with the reasons. */
export interface NextDecides {
  readonly node: Readonly<Record<string, string>>;
  readonly edge: Readonly<Record<string, string>>;
}

/** Each runtime the app mounts the route on (app/contract/<runtime>/api), with its suite's title. */
const RUNTIMES = [
  ['node', 'route handler on the Node.js runtime, next start'],
  ['edge', "route handler on the Edge runtime (runtime = 'edge'), next start"],
] as const satisfies readonly (readonly [keyof NextDecides, string])[];

// No telemetry call at build or start: CI has no network but the npm registry.
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1' };

/**
 * Builds a Next.js example once (`next build`, both runtimes in the one build), then runs against
 * `next start` the example's own checks and the HTTP contract on the contract host's Node.js and Edge
 * routes (app/contract/node and app/contract/edge), each host a `next start` of that build.
 *
 * @param cwd - the example's folder
 * @param decides - the contract's cases Next.js decides before the route, per runtime
 */
export function describeNextApp(cwd: string, decides: NextDecides): void {
  const nextBin = createRequire(`${cwd}/package.json`).resolve('next/dist/bin/next');
  const { version } = createRequire(`${cwd}/package.json`)('next/package.json') as {
    version: string;
  };
  const start = (env: Readonly<Record<string, string>>): Promise<RuntimeProcess> =>
    startRuntime({
      binary: process.execPath,
      args: [nextBin, 'start', '--hostname', '127.0.0.1', '--port', '0'],
      cwd,
      env: { ...env, ...NEXT_ENV },
    });

  describe(`Next.js ${version}`, () => {
    // Its output is in the error when it fails.
    beforeAll(async () => {
      await promisify(execFile)(process.execPath, [nextBin, 'build'], {
        cwd,
        env: { ...process.env, ...NEXT_ENV, NODE_ENV: 'production' },
        maxBuffer: 1 << 24,
      });
    }, 600_000);

    // What Next.js decides around the route (docs/hosts/nextjs.md), on the example's own routes.
    describeExampleServer('the example app on next start', start, 'memory', (example) => {
      it("takes the testing kit's tokens on both runtimes, from next start's environment", async () => {
        for (const [base, id] of [
          ['/api', 21],
          ['/edge/api', 22],
        ] as const) {
          const reply = await createPlant(example(), base, id);
          expect([base, reply.status]).toEqual([base, 200]);
        }
      });

      it('cuts a repeated Content-Type to the first on both runtimes: JSON, then text/plain, is stored', async () => {
        for (const [base, id] of [
          ['/api', 23],
          ['/edge/api', 24],
        ] as const) {
          const reply = await createPlant(example(), base, id, ['application/json', 'text/plain']);
          expect([base, reply.status, reply.text]).toEqual([base, 200, `{"name":"Front ${id}"}`]);
        }
      });

      it('answers POST /api//plants 308 to /api/plants, before the route', async () => {
        const reply = await send(example().origin, { path: '/api//plants', body: '{}' });
        expect([reply.status, reply.headers['location']]).toEqual([308, '/api/plants']);
      });
    });
    for (const [runtime, title] of RUNTIMES) {
      const mountPath = `/contract/${runtime}/api`;
      describeHttpContract(
        title,
        remoteTarget(warmed(start, mountPath), { passesOn: true, mountPath }),
        { decides: decides[runtime] },
      );
    }
  });
}

/**
 * A host whose route file is loaded before the suite's first request: `next start` loads a route
 * (and starts an Edge sandbox) on its first request, which on a busy machine could outlast a case's
 * 100 ms store time-out. A GET, which the host passes on, loads the file that holds the route.
 */
function warmed(start: LaunchHost, mountPath: string): LaunchHost {
  return async (env) => {
    const host = await start(env);
    await (await fetch(`${host.origin}${mountPath}/plants`)).arrayBuffer();
    return host;
  };
}
