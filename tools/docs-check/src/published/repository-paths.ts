import { execFileSync } from 'node:child_process';
import { posix } from 'node:path';

/** The paths of the repository as GitHub shows them: what git tracks, not what lies on disk. */
export interface RepositoryPaths {
  readonly files: ReadonlySet<string>;
  readonly folders: ReadonlySet<string>;
}

/**
 * Lists the tracked files of a repository and the folders that hold them. A file only on disk (built,
 * or not added yet) is not on GitHub, so a link to it would break there.
 *
 * @param root - the repository's root folder
 * @returns its tracked paths, relative to the root
 * @throws {Error} when `root` is not in a git repository
 */
export function trackedPaths(root: string): RepositoryPaths {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '');
  const folders = new Set<string>();
  for (const file of files) {
    for (let folder = posix.dirname(file); folder !== '.'; folder = posix.dirname(folder)) {
      folders.add(folder);
    }
  }
  return { files: new Set(files), folders };
}
