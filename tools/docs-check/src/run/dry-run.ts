import ts from 'typescript';

/**
 * The methods a block calls to reach a server or a port: connect, warm up, create tables, listen,
 * shut down. A dry run leaves them out, so that a block runs where no database, key set or free
 * port is; every factory it calls still runs, with the options the block gives it.
 */
export const IO_METHODS: ReadonlySet<string> = new Set([
  'close',
  'connect',
  'destroy',
  'end',
  'ensureSchema',
  'listen',
  'quit',
  'ready',
]);

/**
 * Compiles a TypeScript block to an ES module that runs everything but its I/O: each call of an
 * {@link IO_METHODS} method becomes its receiver (`await store.ensureSchema()` awaits `store`,
 * `createClient(…).connect()` is the client, unconnected).
 *
 * @param code - the block's TypeScript
 * @returns the module's JavaScript
 * @example
 * ```ts
 * dryRun('await plants.ready();'); // 'await plants;\n'
 * ```
 */
export function dryRun(code: string): string {
  return ts.transpileModule(code, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
    },
    transformers: { before: [withoutIo] },
  }).outputText;
}

function withoutIo(context: ts.TransformationContext): ts.Transformer<ts.SourceFile> {
  const visit = (node: ts.Node): ts.Node => {
    const visited = ts.visitEachChild(node, visit, context);
    if (
      ts.isCallExpression(visited) &&
      ts.isPropertyAccessExpression(visited.expression) &&
      IO_METHODS.has(visited.expression.name.text)
    ) {
      return visited.expression.expression;
    }
    return visited;
  };
  return (file) => ts.visitEachChild(file, visit, context);
}
