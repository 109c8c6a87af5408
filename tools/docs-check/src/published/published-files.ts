import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PackageManifest } from './repository';

// npm packs these from the package's root whatever `files` says (npm-packlist); CHANGELOG is not one.
const ALWAYS = /^(?:package\.json|readme|license|licence|copying)(?:\..*)?$/iu;
// Never packed, even inside a folder `files` names.
const NEVER = new Set(['node_modules', '.git']);

/** Which of a package's paths npm publishes, from its `files` field. */
export interface PublishedFiles {
  /** Whether a path relative to the package's folder (`CHANGELOG.md`, `dist/index.js`) is packed. */
  readonly has: (path: string) => boolean;
  /** The published Markdown files, relative to the package's folder, sorted. */
  readonly markdown: readonly string[];
}

/**
 * Works out what `npm pack` puts in a package's tarball. Entries of `files` are taken as paths (a file,
 * or a folder and everything in it); glob patterns are refused, so this never guesses less than npm
 * packs. A test holds the result to a real `npm pack`.
 *
 * @param packageFolder - the package's folder on disk
 * @param manifest - its package.json
 * @returns the published paths
 * @throws {TypeError} when `files` is not a list of strings, or holds a glob pattern
 */
export function publishedFiles(packageFolder: string, manifest: PackageManifest): PublishedFiles {
  const files = manifest.files ?? ['.'];
  if (!Array.isArray(files) || !files.every((entry) => typeof entry === 'string')) {
    throw new TypeError(`"files" must be a list of paths, got ${JSON.stringify(files)}`);
  }
  const entries = files.map((entry) => {
    if (/[*?[\]{}!]/u.test(entry)) {
      throw new TypeError(`"files" holds the pattern ${entry}; list paths, which this check reads`);
    }
    return entry.replace(/^\.\//u, '').replace(/\/+$/u, '');
  });
  const has = (path: string): boolean =>
    (!path.includes('/') && ALWAYS.test(path)) ||
    entries.some((entry) => entry === '.' || path === entry || path.startsWith(`${entry}/`));
  const markdown = walk(packageFolder, '').filter((path) => /\.md$/iu.test(path) && has(path));
  return { has, markdown: markdown.sort() };
}

/**
 * @param folder - the package's folder
 * @param prefix - the path walked so far, relative to it
 * @returns every file under it, relative to the package's folder
 */
function walk(folder: string, prefix: string): string[] {
  return readdirSync(join(folder, prefix)).flatMap((name) => {
    if (NEVER.has(name)) return [];
    const path = prefix === '' ? name : `${prefix}/${name}`;
    return statSync(join(folder, path)).isDirectory() ? walk(folder, path) : [path];
  });
}
