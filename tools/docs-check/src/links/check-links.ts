import { existsSync, readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { markdownLinks } from '../published/markdown-links';
import { canonicalRepository } from '../published/repository';
import { sections } from '../reading/sections';

// A scheme (`https:`, `mailto:`) makes a link absolute.
const SCHEME = /^[a-z][a-z\d+.-]*:/iu;

/**
 * Checks that every link of the repository's Markdown pages leads somewhere: a relative link to a
 * file or folder that exists, and to a heading of the page it names (`koa.md#mounting`, `#usage`);
 * a link to this repository on GitHub (`…/blob/main/docs/hosts/koa.md#mounting`, as published READMEs
 * write them) the same. Moving a page breaks every link to it here, not on a reader's screen.
 *
 * @param root - the repository's root folder
 * @param pages - the pages, from the root: `README.md`, `docs/hosts/koa.md`
 * @returns one line per broken link, `page:line: target: why`; empty when every link holds
 * @example
 * checkLinks(root, ['README.md', ...docsPages(root)]);
 */
export function checkLinks(root: string, pages: readonly string[]): string[] {
  const { web } = canonicalRepository(
    JSON.parse(readFileSync(posix.join(root, 'package.json'), 'utf8')) as object,
  );
  const inRepository = new RegExp(
    `^${web.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}/(?:blob|tree)/main/(.*)$`,
    'u',
  );
  const anchorsOf = new Map<string, ReadonlySet<string>>();
  const anchors = (page: string): ReadonlySet<string> => {
    let found = anchorsOf.get(page);
    if (found === undefined) {
      const split = sections(readFileSync(posix.join(root, page), 'utf8'));
      found = new Set(split.sections.map((section) => section.anchor));
      anchorsOf.set(page, found);
    }
    return found;
  };
  const problems: string[] = [];
  for (const page of pages) {
    for (const { line, target } of markdownLinks(readFileSync(posix.join(root, page), 'utf8'))) {
      const inRepo = inRepository.exec(target)?.[1];
      if (SCHEME.test(target) && inRepo === undefined) continue;
      const [path = '', anchor] = (inRepo ?? target).split('#');
      const file =
        inRepo !== undefined
          ? posix.normalize(decodeURI(path))
          : path === ''
            ? page
            : posix.join(posix.dirname(page), decodeURI(path));
      const why =
        file.startsWith('..') || !existsSync(posix.join(root, file))
          ? `${file} does not exist`
          : anchor !== undefined &&
              anchor !== '' &&
              file.endsWith('.md') &&
              statSync(posix.join(root, file)).isFile() &&
              !anchors(file).has(anchor)
            ? `${file} has no heading #${anchor}`
            : undefined;
      if (why !== undefined) problems.push(`${page}:${line}: ${target}: ${why}`);
    }
  }
  return problems;
}
