// Writes test/generated/ (git-ignored) before tsc and ESLint read the tests that import it:
// `pnpm --filter @plantstore/adoption generate`, also run by this package's typecheck script.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTestTypes } from './generated-types';

for (const [path, source] of await generateTestTypes()) {
  const file = fileURLToPath(new URL(`./generated/${path}`, import.meta.url));
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === source) continue;
  await mkdir(dirname(file), { recursive: true });
  // Whole or not at all: a type-check running beside this never reads half a file.
  await writeFile(`${file}.${process.pid}.tmp`, source);
  await rename(`${file}.${process.pid}.tmp`, file);
}
