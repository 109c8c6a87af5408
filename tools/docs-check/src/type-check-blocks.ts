import { dirname } from 'node:path';
import ts from 'typescript';

/** A code block of a Markdown page, as a virtual TypeScript file. */
export interface CodeBlock {
  /** Where the block starts, for failure messages: `docs/hosts/koa.md:42`. */
  readonly where: string;
  /** The virtual file's path: where it is checked decides how its imports resolve. */
  readonly fileName: string;
  readonly code: string;
}

/**
 * Type-checks code blocks as virtual files of one program, with declaration files (globals the
 * blocks take as given) beside them.
 *
 * @param blocks - the blocks
 * @param options - the compiler options
 * @param declarations - declaration files to add, by path: on disk (`undefined`) or virtual (text)
 * @returns one line per problem, `page:line: message`; empty when every block compiles
 */
export function typeCheckBlocks(
  blocks: readonly CodeBlock[],
  options: ts.CompilerOptions,
  declarations: ReadonlyMap<string, string | undefined>,
): string[] {
  const virtual = new Map(blocks.map((block) => [block.fileName, block.code]));
  for (const [path, text] of declarations) if (text !== undefined) virtual.set(path, text);
  const host = ts.createCompilerHost(options);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  // A virtual file's folder exists for module resolution, though nothing may be on disk there.
  const directoryExists =
    host.directoryExists?.bind(host) ?? ((name) => ts.sys.directoryExists(name));
  const virtualFolders = new Set([...virtual.keys()].flatMap(foldersOf));
  host.directoryExists = (name) => virtualFolders.has(name) || directoryExists(name);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  host.getSourceFile = (name, language, ...rest) => {
    const code = virtual.get(name);
    return code === undefined
      ? getSourceFile(name, language, ...rest)
      : ts.createSourceFile(name, code, language, true);
  };
  const roots = [...declarations.keys(), ...blocks.map((block) => block.fileName)];
  const program = ts.createProgram(roots, options, host);
  const whereOf = new Map(blocks.map((block) => [block.fileName, block.where]));
  // Only the blocks' own diagnostics are asked for: checking every file of the program (the
  // packages' sources the blocks import) took most of the time and reported nothing kept here.
  return blocks
    .map((block) => program.getSourceFile(block.fileName) as ts.SourceFile)
    .flatMap((file) => [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ])
    .filter((diagnostic) => diagnostic.file !== undefined && whereOf.has(diagnostic.file.fileName))
    .map((diagnostic) => {
      const file = diagnostic.file as ts.SourceFile;
      const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const [page, start] = (whereOf.get(file.fileName) as string).split(':');
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      return `${page}:${Number(start) + 1 + line}: ${message}`;
    });
}

/**
 * @param path - a file's path
 * @returns the folders the file is in, its own first and the root last
 */
function foldersOf(path: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(path); !folders.includes(folder); folder = dirname(folder)) {
    folders.push(folder);
  }
  return folders;
}
