import { isDeepStrictEqual } from 'node:util';
import { type CanonicalRepository, expectedFields, type PackageManifest } from './repository';

/**
 * Checks the fields npm shows on a package's registry page as links: `repository` (with the
 * package's folder, so "Repository" opens it rather than the monorepo's root), `homepage` and `bugs`.
 * npm copies them into the tarball as written, so checking package.json checks what is published.
 *
 * @param manifest - the package's package.json
 * @param directory - the package's folder from the root, `packages/core`
 * @param canonical - the canonical repository, from the root package.json
 * @returns one line per problem, `packages/core/package.json: …`; empty when all three are right
 * @example
 * checkPackageFields(manifest, 'packages/core', canonical); // []
 */
export function checkPackageFields(
  manifest: PackageManifest,
  directory: string,
  canonical: CanonicalRepository,
): string[] {
  const where = `${directory}/package.json`;
  const expected = expectedFields(canonical, directory);
  const problems: string[] = [];
  for (const field of ['repository', 'homepage', 'bugs'] as const) {
    const actual = manifest[field];
    if (isDeepStrictEqual(actual, expected[field])) continue;
    problems.push(
      actual === undefined
        ? `${where}: "${field}" is missing; expected ${JSON.stringify(expected[field])}`
        : `${where}: "${field}" is ${JSON.stringify(actual)}; expected ${JSON.stringify(expected[field])}`,
    );
  }
  return problems;
}
