import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rewriteLinks, writeFields } from './fix-published';
import { checkPackageFields } from './package-fields';
import { checkPublishedLinks } from './published-links';
import { publishedFiles } from './published-files';
import {
  type CanonicalRepository,
  canonicalRepository,
  expectedFields,
  githubPage,
  type PackageManifest,
} from './repository';
import { trackedPaths } from './repository-paths';

/** What the check found across the published packages. */
export interface PublishedPackagesReport {
  /** The published packages' folders, `packages/core`, sorted. */
  readonly packages: readonly string[];
  /** The Markdown pages read, `packages/core/README.md`. */
  readonly pages: readonly string[];
  /** One line per problem left; empty when every registry page's links hold. */
  readonly problems: readonly string[];
  /** With `fix`, one line per problem fixed in place. */
  readonly fixed: readonly string[];
}

/**
 * Checks every package under `packages/` that is not private: its `repository`, `homepage` and `bugs`
 * against the root package.json, and the links of every Markdown page it publishes. With `fix`, it
 * writes the fields and the links it has a sure replacement for, so moving the repository is one
 * edit of the root package.json and one run.
 *
 * @param root - the repository's root folder (a git work tree)
 * @param options - `fix`: write the fixes it can instead of reporting them
 * @returns the packages and pages checked, the problems left and those fixed
 * @throws {TypeError} when the root package.json lacks the canonical repository
 * @example
 * const { problems } = checkPublishedPackages(process.cwd());
 */
export function checkPublishedPackages(
  root: string,
  options: { readonly fix?: boolean } = {},
): PublishedPackagesReport {
  const canonical = canonicalRepository(readJson(join(root, 'package.json')));
  const repository = trackedPaths(root);
  const report = {
    packages: [] as string[],
    pages: [] as string[],
    problems: [] as string[],
    fixed: [] as string[],
  };
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    const directory = `packages/${name}`;
    const manifestPath = join(root, directory, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = readJson(manifestPath);
    if (manifest.private === true) continue;
    report.packages.push(directory);
    const fieldProblems = checkPackageFields(manifest, directory, canonical);
    if (options.fix === true && fieldProblems.length > 0) {
      writeFields(manifestPath, expectedFields(canonical, directory));
      report.fixed.push(...fieldProblems);
    } else {
      report.problems.push(...fieldProblems);
    }
    const published = publishedFiles(join(root, directory), manifest);
    // After the root's repository changes, the package still names the old one until it is updated:
    // its links into that one are stale too, though they no longer look like the project's.
    const formerHomes = [formerHome(manifest, canonical)].filter((home) => home !== undefined);
    for (const page of published.markdown) {
      report.pages.push(`${directory}/${page}`);
      const pagePath = join(root, directory, page);
      const markdown = readFileSync(pagePath, 'utf8');
      const problems = checkPublishedLinks(
        { directory, page, markdown, published },
        canonical,
        repository,
        formerHomes,
      );
      const fixed = new Set(options.fix === true ? rewriteLinks(pagePath, problems) : []);
      for (const problem of problems) {
        (fixed.has(problem) ? report.fixed : report.problems).push(problem.message);
      }
    }
  }
  return report;
}

function formerHome(manifest: PackageManifest, canonical: CanonicalRepository): string | undefined {
  // npm also takes a bare URL for `repository`.
  const { repository } = manifest;
  const url =
    typeof repository === 'string'
      ? repository
      : (repository as { url?: unknown } | undefined)?.url;
  const home = typeof url === 'string' ? githubPage(url) : undefined;
  return home === canonical.web ? undefined : home;
}

function readJson(path: string): PackageManifest {
  return JSON.parse(readFileSync(path, 'utf8')) as PackageManifest;
}
