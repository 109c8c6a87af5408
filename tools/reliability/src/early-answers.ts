// `pnpm early-answers`: how many answers sent before the body was read (401 without a token, 413
// with one for a length over the limit) never reach the client, per host, body size and client. The
// route answers `Connection: close` at once and does not read the body; a server that then resets the
// connection while the client is still sending can destroy the answer before the client reads it.
// TRIES (default 1000) per cell, PARALLEL (default 8) of them at a time; HOSTS (comma-separated,
// default every host) and SIZES (in MB, default 2,64) narrow the run. Prints a markdown table; exits
// 1 when any answer was lost.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_HOSTS, type HostName } from './host/adapters';
import { curlClient, type EarlyClient, fetchClient } from './early/lost-answer';
import { startHost } from './hostile/hosts';
import { startIdentity } from './hostile/identity';

const tries = Number(process.env['TRIES'] ?? '1000');
const hosts = (process.env['HOSTS']?.split(',') ?? HOSTILE_HOSTS) as HostName[];
const sizes = (process.env['SIZES'] ?? '2,64').split(',').map(Number);
const parallel = Number(process.env['PARALLEL'] ?? '8');
const clients: Readonly<Record<string, EarlyClient>> = { fetch: fetchClient, curl: curlClient };

const identity = await startIdentity();
let lostAny = false;
const json = { 'content-type': 'application/json' };
const answers = [
  [401, json],
  [413, { ...json, authorization: `Bearer ${await identity.sign()}` }],
] as const;
const cells = Object.entries(clients).flatMap((client) =>
  answers.map((answer) => [client, answer] as const),
);
process.stdout.write('| host | body | answer | client | tries | lost | how |\n');
process.stdout.write('|---|---|---|---|---|---|---|\n');
try {
  for (const size of sizes) {
    const body = new Uint8Array(size * 1_000_000).fill(0x20);
    const file = join(tmpdir(), `plantstore-early-${size}mb`);
    writeFileSync(file, body);
    for (const name of hosts) {
      const host = await startHost(name, { auth: () => identity.auth() });
      try {
        for (const [[client, post], [status, headers]] of cells) {
          const how = new Map<string, number>();
          let started = 0;
          const worker = async (): Promise<void> => {
            for (; started < tries;) {
              started += 1;
              const outcome = await post(`${host.origin}/plants`, headers, body, file);
              const key =
                'lost' in outcome
                  ? outcome.lost
                  : outcome.status === status
                    ? ''
                    : `${outcome.status}`;
              if (key !== '') how.set(key, (how.get(key) ?? 0) + 1);
            }
          };
          await Promise.all(Array.from({ length: parallel }, worker));
          const lost = [...how.values()].reduce((sum, count) => sum + count, 0);
          lostAny ||= lost > 0;
          const reasons = [...how].map(([reason, count]) => `${reason} ×${count}`).join(', ');
          const cell = `${name} | ${size} MB | ${status} | ${client} | ${tries} | ${lost}`;
          process.stdout.write(`| ${cell} | ${reasons} |\n`);
        }
      } finally {
        await host.close();
      }
    }
  }
} finally {
  await identity.close();
}
process.exitCode = lostAny ? 1 : 0;
