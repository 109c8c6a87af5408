import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** A TypeScript code block of a Markdown page. */
export interface MarkdownBlock {
  /** The page, from the repository's root: `packages/koa/README.md`. */
  readonly page: string;
  /** 1-based line of the block's opening fence. */
  readonly line: number;
  /** The runtime the fence names (```ts bun, ```ts deno), if any. */
  readonly runtime: 'bun' | 'deno' | undefined;
  readonly code: string;
}

// A fence may name the runtime the block runs on (```ts bun, ```ts deno).
const FENCE = /^```(?:ts|typescript)(?: (bun|deno))?[^\n]*\n([\s\S]*?)^```/gm;

/**
 * The README of the repository and of each published package: the pages npm and GitHub show first,
 * whose blocks a reader copies as they are.
 *
 * @param root - the repository's root folder
 * @returns the pages, from the root: `README.md`, then `packages/<name>/README.md` by name
 * @example
 * readmes(root); // ['README.md', 'packages/aws-lambda/README.md', …]
 */
export function readmes(root: string): string[] {
  return ['README.md', ...readmesUnder(root, 'packages')];
}

/**
 * The READMEs of the folders right under `folder` that have one.
 *
 * @param root - the repository's root folder
 * @param folder - `packages` or `examples`
 * @returns the pages, from the root, sorted
 */
export function readmesUnder(root: string, folder: string): string[] {
  return readdirSync(join(root, folder))
    .sort()
    .map((name) => `${folder}/${name}/README.md`)
    .filter((page) => {
      try {
        readFileSync(join(root, page));
        return true;
      } catch {
        return false;
      }
    });
}

/**
 * The pages of `docs/`, in its folders too.
 *
 * @param root - the repository's root folder
 * @returns the pages, from the root, sorted: `docs/README.md`, `docs/hosts/koa.md`, …
 * @example
 * docsPages(root).includes('docs/README.md'); // true
 */
export function docsPages(root: string): string[] {
  return readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name.split(sep).join('/')}`)
    .sort();
}

/**
 * The TypeScript blocks of Markdown pages, in page order.
 *
 * @param root - the repository's root folder
 * @param pages - the pages, from the root or absolute
 * @returns each ```ts (or ```typescript) block with where it starts
 * @example
 * markdownBlocks(root, ['README.md'])[0]?.line; // the line of its fence
 */
export function markdownBlocks(root: string, pages: readonly string[]): MarkdownBlock[] {
  return pages.flatMap((path) => {
    const page = relative(root, resolve(root, path));
    const text = readFileSync(join(root, page), 'utf8');
    return [...text.matchAll(FENCE)].map((match) => ({
      page,
      line: text.slice(0, match.index).split('\n').length,
      runtime: match[1] as 'bun' | 'deno' | undefined,
      code: match[2] ?? '',
    }));
  });
}
