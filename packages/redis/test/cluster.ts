import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { serviceUrl } from '@plantstore/core/testing';
import { it } from 'vitest';

const run = promisify(execFile);

/**
 * The machine's `redis-server` binary (`REDIS_SERVER`, else found on PATH), or `undefined` to skip
 * `suite` with a printed reason (a failing test instead under `PLANTSTORE_REQUIRE_SERVICES=1`).
 * `redis-cli` is taken from the same directory.
 */
export function redisServerFor(suite: string): string | undefined {
  if (process.env['REDIS_SERVER'] === undefined) {
    const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim() !== '')
      process.env['REDIS_SERVER'] = found.stdout.trim();
  }
  return serviceUrl({ it }, 'REDIS_SERVER', suite, '/usr/bin/redis-server');
}

const cliOf = (server: string): string => join(dirname(server), 'redis-cli');

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
  /** Resolves once the cluster is ok on every running node and every replica is in sync. */
  settled(): Promise<void>;
  /** Stops every node and deletes their files. */
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 whose cluster bus port (+10000) is free too. */
export async function freePort(): Promise<number> {
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
export async function startCluster(server: string): Promise<TestCluster> {
  const redisCli = cliOf(server);
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
      server,
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
        '--dbfilename',
        `dump-${port}.rdb`,
        // A replica that rejoins is synced at once, not after the default 5 s wait for others.
        '--repl-diskless-sync-delay',
        '0',
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    );
    nodes.set(port, child);
  };
  const cli = async (port: number, ...args: string[]) =>
    (await run(redisCli, ['-p', String(port), ...args])).stdout;
  const answers = (port: number) => async () => (await cli(port, 'PING')).trim() === 'PONG';
  ports.forEach(start);
  for (const port of ports) await until(answers(port), 10_000, `node ${port}`);
  await run(redisCli, [
    '--cluster',
    'create',
    ...ports.map((port) => `127.0.0.1:${port}`),
    '--cluster-replicas',
    '1',
    '--cluster-yes',
  ]);
  const ok = (port: number) => async () =>
    (await cli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok');
  // A replica still loading its first copy would fail the first WAITs of a test.
  const synced = (port: number) => async () => {
    const info = await cli(port, 'INFO', 'replication');
    return info.includes('role:master')
      ? /connected_slaves:[1-9]/.test(info)
      : info.includes('master_link_status:up');
  };
  const settled = async () => {
    for (const port of ports.filter(isUp)) {
      await until(ok(port), 20_000, `cluster state ok on ${port}`);
      await until(synced(port), 20_000, `replication in sync on ${port}`);
    }
  };
  await settled();

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
    settled,
    async stop() {
      const running = ports.filter(isUp).map((port) => nodes.get(port) as ChildProcess);
      const exits = running.map((child) => new Promise((resolve) => child.once('exit', resolve)));
      for (const child of running) child.kill('SIGKILL');
      await Promise.all(exits);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
