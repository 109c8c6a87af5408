export { blockCompilerOptions, packageSourcePaths } from './compiler-options';
export { typeCheckBlocks } from './type-check-blocks';
export type { CodeBlock } from './type-check-blocks';
