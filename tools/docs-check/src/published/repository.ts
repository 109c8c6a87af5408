/** The fields of a package.json this check reads; anything else is left alone. */
export interface PackageManifest {
  readonly name?: unknown;
  readonly private?: unknown;
  readonly files?: unknown;
  readonly repository?: unknown;
  readonly homepage?: unknown;
  readonly bugs?: unknown;
}

/** The one home of the project's source, as the root package.json states it. */
export interface CanonicalRepository {
  /** `repository.type` of the root, `git`. */
  readonly type: string;
  /** `repository.url` of the root, as npm wants it: `git+https://github.com/owner/name.git`. */
  readonly url: string;
  /** The repository's page: `https://github.com/owner/name`, the prefix of every link into it. */
  readonly web: string;
  /** `bugs` of the root, kept as written (a URL, or `{ url }`). */
  readonly bugs: unknown;
}

/**
 * The branch links point at. GitHub serves `blob/main/…` and `tree/main/…` while the file exists there;
 * the base branch of `.changeset/config.json` is the same one.
 */
export const BRANCH = 'main';

// `git+https://github.com/owner/name.git` and `https://github.com/owner/name` both name one page.
const GITHUB_URL = /^(?:git\+)?(https:\/\/github\.com\/[\w.-]+\/[\w.-]+?)(?:\.git)?$/u;

/**
 * Reads the canonical repository from the root package.json, the one place it is written: every
 * package's fields and every absolute link of their docs are derived from it.
 *
 * @param root - the root package.json
 * @returns the repository
 * @throws {TypeError} when the root has no GitHub `repository` (object form), `homepage` or `bugs`
 * @example
 * const canonical = canonicalRepository(JSON.parse(readFileSync('package.json', 'utf8')));
 */
export function canonicalRepository(root: PackageManifest): CanonicalRepository {
  const repository = root.repository as { type?: unknown; url?: unknown } | undefined;
  const url = typeof repository?.url === 'string' ? repository.url : undefined;
  const web = url === undefined ? undefined : githubPage(url);
  if (typeof repository?.type !== 'string' || url === undefined || web === undefined) {
    throw new TypeError(
      `the root package.json needs "repository": { "type": "git", "url": "git+https://github.com/<owner>/<name>.git" }, got ${JSON.stringify(root.repository)}`,
    );
  }
  if (typeof root.homepage !== 'string' || root.bugs === undefined) {
    throw new TypeError('the root package.json needs "homepage" and "bugs" beside "repository"');
  }
  return { type: repository.type, url, web, bugs: root.bugs };
}

/**
 * @param url - a repository's URL, as package.json writes it
 * @returns its page on GitHub, `https://github.com/owner/name`; undefined for another host
 */
export function githubPage(url: string): string | undefined {
  return GITHUB_URL.exec(url)?.[1];
}

/**
 * What a published package's package.json must say so its registry page leads back to its folder.
 *
 * @param canonical - the canonical repository
 * @param directory - the package's folder from the root, `packages/core`
 * @returns the expected `repository`, `homepage` and `bugs`
 */
export function expectedFields(
  canonical: CanonicalRepository,
  directory: string,
): { repository: object; homepage: string; bugs: unknown } {
  return {
    repository: { type: canonical.type, url: canonical.url, directory },
    homepage: `${canonical.web}/tree/${BRANCH}/${directory}#readme`,
    bugs: canonical.bugs,
  };
}
