import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the sources, so `pnpm test` needs no build first; CI also checks the built packages.
export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@plantstore\/core\/testing$/,
        replacement: source('packages/core/src/testing/index.ts'),
      },
      { find: /^@plantstore\/core$/, replacement: source('packages/core/src/index.ts') },
      { find: /^@plantstore\/express$/, replacement: source('packages/express/src/index.ts') },
      { find: /^@plantstore\/fastify$/, replacement: source('packages/fastify/src/index.ts') },
      { find: /^@plantstore\/koa$/, replacement: source('packages/koa/src/index.ts') },
      { find: /^@plantstore\/postgres$/, replacement: source('packages/postgres/src/index.ts') },
    ],
  },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'examples/*/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    typecheck: { enabled: false },
  },
});
