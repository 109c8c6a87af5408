import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { countWords } from './count-words';
import { sections } from './sections';

/** The most words a reader's row of the docs' index may ask them to read (issues 39 and 48). */
export const WORD_BUDGET = 1500;

/** One task of the reading list: what it sends the reader to, and what the page says it costs. */
export interface ReadingTask {
  /** 1-based line of the task's row, for messages. */
  readonly line: number;
  readonly task: string;
  /** The row's links: `page.md` (the whole page), `page.md#anchor` or `#anchor` (one section). */
  readonly links: readonly string[];
  /** The figure the row states, `undefined` when it states none. */
  readonly stated: number | undefined;
  /** The words the links hold, counted. */
  readonly counted: number;
}

// The list is the table right after this marker; a row is `| task | read | 1,234 |`.
const MARKER = '<!-- reading list: pnpm lint counts each row -->';
const LINK = /\]\(([^)\s]+)\)/gu;

/**
 * Counts the words a task's links ask for. A page that the row links only without an anchor is read
 * whole; a page whose sections it links (`page.md#anchor`, or `#anchor` on the list's own page) is
 * read as those sections and its top (its title and what comes before the first `##`), each once.
 *
 * @param root - the repository's root
 * @param page - the reading list's page, from the root (`docs/README.md`)
 * @param links - the row's links
 * @returns the words
 * @throws Error for a link to a page or section that does not exist
 */
export function wordsOf(root: string, page: string, links: readonly string[]): number {
  const anchorsByPage = new Map<string, Set<string>>();
  for (const link of links) {
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? page : relative(root, join(root, dirname(page), path));
    const anchors = anchorsByPage.get(target) ?? new Set<string>();
    if (anchor !== undefined) anchors.add(anchor);
    anchorsByPage.set(target, anchors);
  }
  let words = 0;
  for (const [target, anchors] of anchorsByPage) {
    const markdown = readFileSync(join(root, target), 'utf8');
    if (anchors.size === 0) {
      words += countWords(markdown);
      continue;
    }
    const split = sections(markdown);
    words += countWords(split.intro);
    for (const anchor of anchors) {
      const section = split.sections.find((candidate) => candidate.anchor === anchor);
      if (section === undefined) throw new Error(`${page}: ${target}#${anchor} is no section`);
      words += countWords(section.text);
    }
  }
  return words;
}

/**
 * Reads a page's reading list (the table after the marker) and counts each task's words.
 *
 * @param root - the repository's root
 * @param page - the page, from the root
 * @returns the tasks, in the table's order
 * @throws Error when the page has no reading list, or a row names nothing to read
 * @example
 * ```ts
 * readingList(root, 'docs/README.md').filter((task) => task.counted > WORD_BUDGET);
 * ```
 */
export function readingList(root: string, page: string): ReadingTask[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const start = lines.indexOf(MARKER);
  if (start === -1) throw new Error(`${page}: no reading list (the line ${MARKER})`);
  const tasks: ReadingTask[] = [];
  // The marker, a blank line, the header row and its separator, then the rows.
  for (let index = start + 4; lines[index]?.startsWith('|') === true; index += 1) {
    const cells = (lines[index] ?? '').split('|').slice(1, -1);
    const [task = '', read = '', words = ''] = cells.map((cell) => cell.trim());
    const links = [...read.matchAll(LINK)].map(([, target]) => target ?? '');
    if (links.length === 0) throw new Error(`${page}:${index + 1}: "${task}" links to nothing`);
    const figure = /^([\d,]+)$/u.exec(words)?.[1];
    tasks.push({
      line: index + 1,
      task,
      links,
      stated: figure === undefined ? undefined : Number(figure.replaceAll(',', '')),
      counted: wordsOf(root, page, links),
    });
  }
  return tasks;
}
