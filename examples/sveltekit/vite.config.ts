import { fileURLToPath } from 'node:url';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  plugins: [sveltekit()],
  // The packages are read from their TypeScript sources in this repository, as the other examples do.
  resolve: {
    alias: [
      {
        find: /^@plantstore\/core\/testing$/,
        replacement: source('../../packages/core/src/testing/index.ts'),
      },
      {
        find: /^@plantstore\/core\/(adapter|openapi|providers)$/,
        replacement: source('../../packages/core/src/entries/$1.ts'),
      },
      { find: /^@plantstore\/core$/, replacement: source('../../packages/core/src/index.ts') },
      {
        find: /^@plantstore\/http-suite\/bridged$/,
        replacement: source('../../tools/http-suite/src/remote/bridged-service.ts'),
      },
    ],
  },
});
