// Server processes: start one per setup, read its CPU time and memory from /proc, stop it.
import { spawn, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { runtime } from './runtimes.mjs';

const SERVERS = join(import.meta.dirname, '..', 'servers');

/** Kernel clock ticks per second, the unit of utime and stime in /proc/<pid>/stat. */
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * Starts `servers/<file>.mjs` in its own process and waits for its `{"port":N}` line.
 *
 * @param {{ id: string, file?: string, env?: Record<string, string>, runtime?: 'bun' | 'deno' }} setup
 * @param {{ env?: Record<string, string>, nodeArgs?: string[], timeoutMs?: number }} [options]
 * @returns {Promise<{ id: string, pid: number, port: number, url: string, stop(): Promise<void> }>}
 */
export function startServer(setup, options = {}) {
  const file = join(SERVERS, `${setup.file ?? setup.id}.mjs`);
  const on = setup.runtime === undefined ? undefined : runtime(setup.runtime);
  if (typeof on === 'string') return Promise.reject(new Error(`${setup.id}: ${on}`));
  // Bun and Deno run their binary itself, so that /proc/<pid> is the server's own CPU.
  const [binary, args] =
    on === undefined
      ? [process.execPath, [...(options.nodeArgs ?? []), file]]
      : [on.path, on.args(file)];
  const child = spawn(binary, args, {
    env: { ...process.env, ...setup.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${setup.id}: no port announced within ${options.timeoutMs ?? 30_000} ms`));
    }, options.timeoutMs ?? 30_000);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${setup.id}: exited before listening (code ${code}, signal ${signal})`));
    });
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      const { port } = JSON.parse(out.slice(0, newline));
      resolve({
        id: setup.id,
        pid: child.pid,
        port,
        url: `http://127.0.0.1:${port}`,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timeout);
        },
      });
    });
  });
}

/**
 * CPU time the process has used so far, user plus system, all threads, in microseconds.
 *
 * @param {number} pid
 */
export function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces; fields are counted from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return (ticks * 1e6) / CLOCK_TICKS;
}

/**
 * CPU time a process's live threads have run so far, in microseconds, from the nanosecond counters
 * of `/proc/<pid>/task/<tid>/schedstat`: fine enough for a hundred requests, where `/proc/<pid>/stat`
 * counts in ticks of 10 ms. Threads that already ended are not counted.
 *
 * @param {number} pid
 */
export function threadCpuMicros(pid) {
  let nanoseconds = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(
        readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0],
      );
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nanoseconds / 1000;
}

/**
 * Resident memory now (VmRSS) and at its peak (VmHWM), in bytes.
 *
 * @param {number} pid
 */
export function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
}

/**
 * CPU time the whole machine has spent busy so far (all cores, in microseconds), and the part the
 * hypervisor stole, from the first line of /proc/stat.
 */
export function machineMicros() {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n', 1)[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
  const toMicros = (ticks) => (ticks * 1e6) / CLOCK_TICKS;
  return {
    busy: toMicros(user + nice + system + irq + softirq),
    idle: toMicros(idle + iowait),
    steal: toMicros(steal ?? 0),
  };
}

/**
 * The machine's CPU time between two readings of {@link machineMicros}: busy, all (busy, idle and
 * stolen: what the cores could have run), and stolen, in microseconds.
 *
 * @param {ReturnType<typeof machineMicros>} before
 * @param {ReturnType<typeof machineMicros>} after
 */
export function machineSpan(before, after) {
  const busy = after.busy - before.busy;
  const steal = after.steal - before.steal;
  return { busy, steal, capacity: busy + after.idle - before.idle + steal };
}
