// `pnpm lint` runs this: every link of the READMEs, CONTRIBUTING, SECURITY and docs/ leads to a file
// and heading that exist, so pages can move without leaving a reader on a 404.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsPages, readmes, readmesUnder } from './blocks/markdown-blocks';
import { checkLinks } from './links/check-links';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const pages = [
  ...readmes(root),
  'CONTRIBUTING.md',
  'SECURITY.md',
  ...docsPages(root),
  ...readmesUnder(root, 'examples'),
  ...readmesUnder(root, 'tools'),
];
const problems = checkLinks(root, pages);
if (problems.length > 0) {
  console.error(`${problems.length} link(s) lead nowhere:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exitCode = 1;
} else {
  console.log(`links: every link of ${pages.length} pages leads to a file and heading that exist`);
}
