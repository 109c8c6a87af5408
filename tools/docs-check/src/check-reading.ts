// `pnpm lint` runs this: each reader's row of the docs' index (a host, a store, the providers, a
// first-hour task) asks at most 1,500 words, and the figure docs/README.md states beside it is the
// count (issues 39 and 48); it prints the words of docs/ in all. `--fix` writes the counts.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsPages } from './blocks/markdown-blocks';
import { countWords } from './reading/count-words';
import { readingList, WORD_BUDGET } from './reading/reading-list';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const PAGE = 'docs/README.md';
const fix = process.argv.includes('--fix');
const format = (words: number) => words.toLocaleString('en-GB');

const tasks = readingList(root, PAGE);
const problems: string[] = [];
const lines = readFileSync(join(root, PAGE), 'utf8').split('\n');
for (const task of tasks) {
  if (task.counted > WORD_BUDGET) {
    problems.push(
      `${PAGE}:${task.line}: "${task.task}" asks for ${format(task.counted)} words, past ${format(WORD_BUDGET)}`,
    );
  }
  if (task.stated === task.counted) continue;
  if (fix) {
    const line = lines[task.line - 1] ?? '';
    // The cell keeps its width where the figure fits, so the table stays as prettier writes it.
    lines[task.line - 1] = line.replace(
      /\|([^|]*)\|\s*$/u,
      (_cell, inner: string) => `| ${format(task.counted).padEnd(inner.length - 2)} |`,
    );
  } else {
    problems.push(
      `${PAGE}:${task.line}: "${task.task}" states ${task.stated ?? 'no count'}; the count is ${format(task.counted)}`,
    );
  }
}
if (fix) writeFileSync(join(root, PAGE), lines.join('\n'));
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(
    `Words are counted as tools/docs-check/src/reading/count-words.ts says${fix ? '' : '; `pnpm --filter @plantstore/docs-check check:reading --fix` writes the counts'}.`,
  );
  process.exitCode = 1;
} else {
  const most = Math.max(...tasks.map((task) => task.counted));
  const pages = docsPages(root);
  const total = pages.reduce(
    (sum, page) => sum + countWords(readFileSync(join(root, page), 'utf8')),
    0,
  );
  console.log(
    `reading: ${tasks.length} readers' rows, the longest ${format(most)} words; docs/: ${format(total)} words in ${pages.length} pages`,
  );
}
