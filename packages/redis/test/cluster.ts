import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A Redis Cluster of 3 masters and 3 replicas, started from the machine's `redis-server`. */
export interface TestCluster {
  /** The nodes' client ports, on 127.0.0.1. */
  readonly ports: readonly number[];
  /** `redis-cli -p port …`'s output. */
  cli(port: number, ...args: string[]): Promise<string>;
  /** The ports of the nodes that are masters now, and of each master's replicas. */
  masters(): Promise<{ port: number; replicas: number[]; slots: string }[]>;
  /** SIGKILLs the node on `port`. */
  kill(port: number): void;
  /** Starts the node on `port` again, from its cluster config: it rejoins (as a replica, if replaced). */
  restart(port: number): Promise<void>;
  /** Stops every node and deletes their files. */
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 whose cluster bus port (+10000) is free too. */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if ((await isFree(port)) && (await isFree(port + 10_000))) return port;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms until it is true, for at most `ms`. */
export async function until(
  check: () => Promise<boolean>,
  ms: number,
  what: string,
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await delay(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Starts six nodes under a temp dir (no persistence, a node time-out of 1 s so that a replica is
 * promoted quickly) and joins them with `redis-cli --cluster create … --cluster-replicas 1`.
 */
export async function startCluster(): Promise<TestCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'plantstore-redis-cluster-'));
  const ports: number[] = [];
  for (let n = 0; n < 6; n += 1) ports.push(await freePort());
  const nodes = new Map<number, ChildProcess>();
  const isUp = (port: number) => {
    const child = nodes.get(port);
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  };
  const start = (port: number) => {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '1000',
        '--appendonly',
        'no',
        '--save',
        '',
        '--logfile',
        `redis-${port}.log`,
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    );
    nodes.set(port, child);
  };
  const cli = async (port: number, ...args: string[]) =>
    (await run('redis-cli', ['-p', String(port), ...args])).stdout;
  const answers = (port: number) => async () => (await cli(port, 'PING')).trim() === 'PONG';
  ports.forEach(start);
  for (const port of ports) await until(answers(port), 10_000, `node ${port}`);
  await run('redis-cli', [
    '--cluster',
    'create',
    ...ports.map((port) => `127.0.0.1:${port}`),
    '--cluster-replicas',
    '1',
    '--cluster-yes',
  ]);
  const ok = (port: number) => async () =>
    (await cli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok');
  for (const port of ports) await until(ok(port), 20_000, `cluster state ok on ${port}`);

  return {
    ports,
    cli,
    async masters() {
      const lines = (
        await cli(ports.find((port) => isUp(port)) ?? ports[0] ?? 0, 'CLUSTER', 'NODES')
      )
        .trim()
        .split('\n')
        .map((line) => line.split(' '));
      const portOf = (address = '') => Number(/:(\d+)@/.exec(address)?.[1]);
      return lines
        .filter((fields) => fields[2]?.includes('master') === true && !fields[2].includes('fail'))
        .map((fields) => ({
          port: portOf(fields[1]),
          slots: fields.slice(8).join(' '),
          replicas: lines
            .filter((other) => other[3] === fields[0] && other[2]?.includes('fail') !== true)
            .map((other) => portOf(other[1])),
        }));
    },
    kill(port) {
      nodes.get(port)?.kill('SIGKILL');
    },
    async restart(port) {
      start(port);
      await until(answers(port), 10_000, `node ${port} restarted`);
    },
    async stop() {
      for (const child of nodes.values()) child.kill('SIGKILL');
      await Promise.all(
        [...nodes.values()].map(
          (child) =>
            child.exitCode === null && new Promise((resolve) => child.once('exit', resolve)),
        ),
      );
      await rm(dir, { recursive: true, force: true });
    },
  };
}
