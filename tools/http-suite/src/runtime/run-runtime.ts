// Runs a program under the bun or deno binary that pnpm installed with the example, without their
// install scripts (docs/hosts/bun-deno-hono.md), from the example's folder:
//
//   node --import tsx ../../tools/http-suite/src/runtime/run-runtime.ts bun src/server.ts
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findRuntime } from './runtime-binary';

const [name, ...args] = process.argv.slice(2);
if (name !== 'bun' && name !== 'deno') {
  console.error('usage: run-runtime.ts bun|deno [arguments…]');
  process.exit(2);
}
const binary = findRuntime(name, pathToFileURL(join(process.cwd(), 'package.json')));
if (typeof binary === 'string') {
  console.error(`Cannot run ${name}: ${binary}.`);
  process.exit(1);
}
const child = spawn(binary.path, args, { stdio: 'inherit' });
// Ctrl-C reaches the whole process group, the program included: wait for it to shut down. SIGTERM
// reaches only this process: pass it on.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
