// `pnpm check:packaging` runs this: a published package's registry page must lead back to its
// folder and docs (issue #27). Exits 1 with one line per problem; `--fix` writes what it can.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPublishedPackages } from './published/check-published-packages';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const fix = process.argv.includes('--fix');
const { packages, pages, problems, fixed } = checkPublishedPackages(root, { fix });

for (const line of fixed) console.log(`fixed: ${line}`);
if (problems.length > 0) {
  console.error(`${problems.length} problem(s) with what the registry will show:`);
  for (const problem of problems) console.error(`  ${problem}`);
  console.error(
    `The root package.json's "repository" is the canonical one (docs/reference/architecture.md, "Publishing")${fix ? '' : '; --fix writes the fields and the links it names'}.`,
  );
  process.exitCode = 1;
} else {
  console.log(
    `published links: ${packages.length} packages point at their folder, and the links of ${pages.length} published pages hold`,
  );
}
