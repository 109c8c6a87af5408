import { posix } from 'node:path';
import { escapeRegExp } from './escape-reg-exp';
import { markdownLinks } from './markdown-links';
import type { PublishedFiles } from './published-files';
import { BRANCH, type CanonicalRepository } from './repository';
import type { RepositoryPaths } from './repository-paths';

/** One published Markdown page of a package. */
export interface PublishedPage {
  /** The package's folder from the root, `packages/core`. */
  readonly directory: string;
  /** The page, relative to the package's folder: `README.md`. */
  readonly page: string;
  readonly markdown: string;
  readonly published: PublishedFiles;
}

/** A link that will not hold on the registry. */
export interface LinkProblem {
  /** 1-based line of the page. */
  readonly line: number;
  /** The link as written. */
  readonly target: string;
  /** `packages/koa/README.md:41: …`, what the check prints. */
  readonly message: string;
  /** The link to write instead, when there is one beyond doubt; `--fix` writes it. */
  readonly replacement?: string;
}

type Finding = Pick<LinkProblem, 'message' | 'replacement'> | undefined;

// A scheme (`https:`, `mailto:`) makes a link absolute; npm leaves it as written.
const SCHEME = /^[a-z][a-z\d+.-]*:/iu;

/**
 * Checks that every link of a published page still leads somewhere once the page is on the registry.
 * npm shows a README away from the repository, so a relative link must stay inside the package and
 * reach a file that is packed; anything else is linked on GitHub, at `blob|tree/main/<path>`, and
 * that path must exist in the repository.
 *
 * @param page - the page and what its package publishes
 * @param canonical - the canonical repository
 * @param repository - the tracked paths of the repository
 * @param formerHomes - repository pages the package pointed at before the root's changed, whose links
 *   no longer count as the project's (`https://github.com/old/name`)
 * @returns the links that will not hold, in page order; empty when every link holds
 * @example
 * checkPublishedLinks(page, canonical, trackedPaths(root), []);
 */
export function checkPublishedLinks(
  page: PublishedPage,
  canonical: CanonicalRepository,
  repository: RepositoryPaths,
  formerHomes: readonly string[],
): LinkProblem[] {
  const pagePath = posix.join(page.directory, page.page);
  const inRepository = new RegExp(
    `^${escapeRegExp(canonical.web)}/(?:blob|tree)/${BRANCH}/([^?#]*)`,
    'u',
  );
  const problems: LinkProblem[] = [];
  for (const { line, target } of markdownLinks(page.markdown)) {
    const former = formerHomes.find((home) =>
      new RegExp(`^${escapeRegExp(home)}(?:[/?#]|$)`, 'u').test(target),
    );
    const finding: Finding =
      former !== undefined
        ? {
            message: `${target} points at ${former}, not at the canonical ${canonical.web}`,
            replacement: canonical.web + target.slice(former.length),
          }
        : SCHEME.test(target)
          ? absoluteProblem(target, inRepository, repository)
          : relativeProblem(target, page, pagePath, canonical, repository);
    if (finding !== undefined) {
      problems.push({
        line,
        target,
        ...finding,
        message: `${pagePath}:${line}: ${finding.message}`,
      });
    }
  }
  return problems;
}

function absoluteProblem(
  target: string,
  inRepository: RegExp,
  repository: RepositoryPaths,
): Finding {
  const path = inRepository.exec(target)?.[1];
  if (path === undefined) return undefined; // another site, or another branch: not ours to check
  const file = decode(path).replace(/\/+$/u, '');
  if (exists(file, repository)) return undefined;
  return { message: `${target}: ${file} is not in the repository` };
}

function relativeProblem(
  target: string,
  page: PublishedPage,
  pagePath: string,
  canonical: CanonicalRepository,
  repository: RepositoryPaths,
): Finding {
  const anchor = target.slice(target.search(/[?#]|$/u));
  const path = decode(target.slice(0, target.length - anchor.length));
  if (path === '') return undefined; // `#section`: an anchor on the page itself
  const file = path.startsWith('/')
    ? path.slice(1)
    : posix.join(posix.dirname(pagePath), path).replace(/\/+$/u, '');
  const inPackage = posix.relative(page.directory, file);
  const outside = path.startsWith('/') || inPackage === '..' || inPackage.startsWith('../');
  if (!exists(file, repository)) {
    return { message: `${target} does not exist${outside ? ' (and leaves the package)' : ''}` };
  }
  if (outside) {
    const kind = repository.folders.has(file) ? 'tree' : 'blob';
    const replacement = `${canonical.web}/${kind}/${BRANCH}/${file}${anchor}`;
    return {
      message: `${target} leaves the package, so it breaks once published; link ${replacement} instead`,
      replacement,
    };
  }
  if (inPackage !== '' && !page.published.has(inPackage)) {
    return {
      message: `${target} is not published: package.json "files" leaves ${inPackage} out`,
    };
  }
  return undefined;
}

/** `%20` and the like as the file name has them; a stray `%` stays as written. */
function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function exists(path: string, repository: RepositoryPaths): boolean {
  return repository.files.has(path) || repository.folders.has(path);
}
