import { join } from 'node:path';
import ts from 'typescript';

/**
 * The compiler options code blocks are checked with: strict, ES2022 on Node's types, bundler
 * resolution, no output; `extra` over them.
 *
 * @param extra - options of one page's blocks, such as `paths` or `allowJs`
 * @returns the options
 * @example
 * const options = blockCompilerOptions({ paths: packageSourcePaths(root) });
 */
export function blockCompilerOptions(extra: ts.CompilerOptions = {}): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    ...extra,
  };
}

/**
 * `paths` that resolve the published packages to their sources, so blocks are checked against the
 * code as it is, without a build.
 *
 * @param root - the repository's root folder
 * @returns the mapping
 */
export function packageSourcePaths(root: string): Record<string, string[]> {
  const source = (path: string): string[] => [join(root, 'packages', path)];
  return {
    '@plantstore/amqp': source('amqp/src/index.ts'),
    '@plantstore/aws-lambda': source('aws-lambda/src/index.ts'),
    '@plantstore/cloudflare': source('cloudflare/src/index.ts'),
    '@plantstore/core': source('core/src/index.ts'),
    '@plantstore/core/adapter': source('core/src/entries/adapter.ts'),
    '@plantstore/core/openapi': source('core/src/entries/openapi.ts'),
    '@plantstore/core/providers': source('core/src/entries/providers.ts'),
    '@plantstore/core/events': source('core/src/entries/events.ts'),
    '@plantstore/core/store-kit': source('core/src/entries/store-kit.ts'),
    '@plantstore/core/testing': source('core/src/testing/index.ts'),
    '@plantstore/dynamodb': source('dynamodb/src/index.ts'),
    '@plantstore/express': source('express/src/index.ts'),
    '@plantstore/fastify': source('fastify/src/index.ts'),
    '@plantstore/koa': source('koa/src/index.ts'),
    '@plantstore/mysql': source('mysql/src/index.ts'),
    '@plantstore/nats': source('nats/src/index.ts'),
    '@plantstore/postgres': source('postgres/src/index.ts'),
    '@plantstore/redis': source('redis/src/index.ts'),
  };
}
