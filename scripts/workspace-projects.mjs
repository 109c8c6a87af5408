// The workspace's TypeScript projects, as `pnpm typecheck` (scripts/typecheck.mjs) and ESLint's typed
// rules (eslint.config.js) split them: those that only add `paths` to tsconfig.base.json are checked
// together as tsconfig.workspace.json; a project with settings of its own (Bun's or Deno's global
// types, decorators) keeps its own program.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The root's tsconfig.json, then each package's and example's, in a stable order. */
function projectConfigs() {
  const nested = ['packages', 'tools', 'examples'].flatMap((folder) =>
    readdirSync(join(root, folder))
      .sort()
      .map((name) => join(root, folder, name, 'tsconfig.json')),
  );
  return [join(root, 'tsconfig.json'), ...nested].filter((file) => existsSync(file));
}

/** A project's own settings beyond `paths` (and the root's `allowImportingTsExtensions`). */
function ownSettings(file) {
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error !== undefined) {
    throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  }
  const shared = new Set(['paths', 'allowImportingTsExtensions']);
  return Object.keys(config.compilerOptions ?? {}).filter((name) => !shared.has(name));
}

/**
 * @returns each tsconfig.json's absolute path: `shared`, checked as tsconfig.workspace.json, and
 *   `own`, each checked by itself
 */
export function workspaceProjects() {
  const shared = [];
  const own = [];
  for (const file of projectConfigs()) (ownSettings(file).length === 0 ? shared : own).push(file);
  return { shared, own };
}
