// What a micro-benchmark's report says about when and where it ran.
import { cpus, loadavg } from 'node:os';
import process from 'node:process';

/** The time now, as the reports write it: `2026-11-23 23:59:00 UTC`. */
export function runDate() {
  return new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/** The machine, Node and the load average now, in one line. */
export function machineLine() {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpus().length} × ${model}, Node ${process.versions.node}, load average ${loadavg()[0]?.toFixed(1)}`;
}
