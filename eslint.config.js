import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const frameworkImports = ['express', 'koa', '@koa/router', 'pg', '@electric-sql/pglite'].map(
  (name) => ({ name, message: 'The core is framework- and driver-neutral.' }),
);

export default tseslint.config(
  {
    // The docs-check globals are type-checked by that package's own test, with the docs' code blocks.
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      'docs/api/**',
      '**/.data/**',
      'packages/docs-check/test/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/consistent-type-exports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Dependencies run one way: the core imports no framework, no driver, no other package of ours.
    files: ['packages/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: frameworkImports,
          patterns: [
            { group: ['@plantstore/*'], message: 'The core depends on no other package.' },
          ],
        },
      ],
    },
  },
  {
    // Everything else sees only the core's public entries.
    files: ['packages/!(core)/**/*.ts', 'examples/**/*.ts', 'benchmarks/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@plantstore/*/src',
                '@plantstore/*/src/*',
                '@plantstore/*/dist/*',
                '**/core/src/**',
                '../core/*',
                '../../core/*',
              ],
              message: 'Import the public entry (@plantstore/core or @plantstore/core/testing).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
);
