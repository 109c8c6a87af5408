export { docsPages, markdownBlocks, readmes, readmesUnder } from './blocks/markdown-blocks';
export type { MarkdownBlock } from './blocks/markdown-blocks';
export { blockCompilerOptions, packageSourcePaths } from './compiler-options';
export { dryRun, IO_METHODS } from './run/dry-run';
export { runBlocks } from './run/run-blocks';
export type { BlockRun } from './run/run-manifest';
export { typeCheckBlocks } from './type-check-blocks';
export type { CodeBlock } from './type-check-blocks';
export { checkLinks } from './links/check-links';
