import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { workspaceProjects } from './scripts/workspace-projects.mjs';

const frameworkImports = [
  'express',
  'koa',
  '@koa/router',
  'pg',
  '@electric-sql/pglite',
  'mysql2',
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/lib-dynamodb',
  'redis',
  'ioredis',
  'amqplib',
  '@nats-io/jetstream',
  '@nats-io/nats-core',
].map((name) => ({ name, message: 'The core is framework- and driver-neutral.' }));

// The core's folders from the bottom up, each with the reason it may not reach higher, and the
// folders above it whose types alone it may read. A folder imports only folders that come before
// it; the entries (index.ts, entries/ and testing/, the public kit) may import all.
const CORE_LAYERS = [
  ['errors', 'errors are values: they import nothing of the route'],
  ['common', 'common holds timers and helpers that know no HTTP, token or plant'],
  ['options', 'option checks know only errors'],
  [
    'store-kit',
    "store-kit is what every store does around its engine (the auth/dpop replay store's too): it runs no request",
    // The plant's types: the stored row's check and insert-or-read answer a NewPlant and an
    // InsertResult, and plant/ runs on the kit, so only its types may come down.
    ['plant'],
  ],
  ['auth', 'auth verifies tokens: it knows no HTTP answer, body, plant or service'],
  ['http', 'http is the request and its headers: it knows no body reader, plant or service'],
  ['body', 'body reads bytes into a candidate: the schema (plant/) and the service come after it'],
  [
    'plant',
    'plant is the schema and the store: it knows no request, answer or service',
    // The store is handed the event to write with the plant, and offers its outbox: types only.
    ['events'],
  ],
  [
    'events',
    'events builds plant.created and relays it to a sink: the service writes it, nothing below reaches it',
  ],
  ['openapi', 'openapi describes the route from its schemas: it runs no request'],
  ['service', 'service composes the steps: nothing below it may reach back into it'],
  ['guard', "guard protects a host's other routes with the service's auth step: nothing uses it"],
];
// Inside auth/: the mechanisms compose one way: introspection/ and presets/ over jwt/, jwt/ over
// dpop/, mtls/ and keys/, and every verifier over claims/, the checks they share.
const AUTH_MECHANISMS = [
  [
    'claims',
    ['keys', 'jwt', 'dpop', 'mtls', 'introspection', 'presets'],
    'auth/claims/ holds the checks every verifier shares: it knows no mechanism',
  ],
  [
    'jwt',
    ['introspection', 'presets'],
    'auth/jwt/ verifies JWTs: introspection and the presets build on it, not the other way',
  ],
  [
    'introspection',
    ['presets', 'dpop', 'mtls', 'keys'],
    'auth/introspection/ asks the provider: it takes a jwtBearer as it is, and knows no key or preset',
  ],
  [
    'presets',
    ['introspection', 'dpop', 'mtls', 'keys'],
    'auth/presets/ are options for jwtBearer: data, not another mechanism',
  ],
  ['keys', ['jwt', 'dpop'], 'auth/keys/ is key material: it knows no token format or binding'],
  ['dpop', ['jwt'], 'auth/dpop/ checks proofs: jwtBearer composes it, not the other way'],
  [
    'mtls',
    ['jwt', 'dpop'],
    'auth/mtls/ checks certificates: jwtBearer composes it, not the other way',
  ],
];

function restrictedImports(patterns) {
  return [
    'error',
    {
      paths: frameworkImports,
      patterns: [
        { group: ['@plantstore/*'], message: 'The core depends on no other package.' },
        ...patterns,
      ],
    },
  ];
}

function coreBoundaries() {
  const folders = CORE_LAYERS.map(([folder]) => folder);
  const configs = [
    {
      files: ['packages/core/**/*.ts'],
      rules: { 'no-restricted-imports': restrictedImports([]) },
    },
  ];
  CORE_LAYERS.forEach(([folder, reason, typesFrom = []], index) => {
    const above = [...folders.slice(index + 1), 'entries', 'testing'].filter(
      (name) => name !== folder && !typesFrom.includes(name),
    );
    const mechanisms = folder === 'auth' ? AUTH_MECHANISMS : [];
    const layer = { regex: `^(\\.\\./)+(${above.join('|')})(/|$)`, message: reason };
    const typesOnly = typesFrom.map((name) => ({
      regex: `^(\\.\\./)+${name}(/|$)`,
      allowTypeImports: true,
      message: `${reason}; of ${name}/ it reads types only`,
    }));
    configs.push({
      files: [`packages/core/src/${folder}/**/*.ts`],
      ignores: ['**/*.test.ts', '**/*.test-support.ts'],
      rules: {
        'no-restricted-imports': restrictedImports([layer]),
        ...(typesOnly.length === 0
          ? {}
          : { '@typescript-eslint/no-restricted-imports': ['error', { patterns: typesOnly }] }),
      },
    });
    for (const [mechanism, forbidden, why] of mechanisms) {
      configs.push({
        files: [`packages/core/src/auth/${mechanism}/**/*.ts`],
        ignores: ['**/*.test.ts', '**/*.test-support.ts'],
        rules: {
          'no-restricted-imports': restrictedImports([
            layer,
            { regex: `^(\\.\\./)+(${forbidden.join('|')})/`, message: why },
          ]),
        },
      });
    }
  });
  return configs;
}

export default tseslint.config(
  {
    // The docs-check globals are type-checked by that package's own test, with the docs' code blocks.
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      'docs/api/**',
      '**/.data/**',
      // Build output of the Next.js and SvelteKit examples (next build, vite build).
      '**/.next/**',
      '**/.svelte-kit/**',
      'examples/sveltekit/build/**',
      'examples/nextjs*/next-env.d.ts',
      'tools/docs-check/test/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The workspace program first (tsconfig.workspace.json: every project that only adds
        // `paths`), then the projects with global types or settings of their own, as `pnpm
        // typecheck` splits them (scripts/workspace-projects.mjs): one program instead of one per project.
        project: ['./tsconfig.workspace.json', ...workspaceProjects().own],
        tsconfigRootDir: import.meta.dirname,
      },
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
  // Dependencies run one way: the core imports no framework, no driver, no other package of ours,
  // and each of its folders imports only the folders below it (docs/reference/architecture.md, "Boundaries").
  ...coreBoundaries(),
  {
    // Each entry's names are its list, locked by entries/entries.test.ts: `export *` would let a
    // module's new export reach users unreviewed. entries/web.ts is the root's Workers build: it
    // re-exports the root's locked list whole, and the test holds the two lists equal.
    files: [
      'packages/core/src/index.ts',
      'packages/core/src/entries/*.ts',
      'packages/core/src/testing/index.ts',
    ],
    ignores: ['**/*.test.ts', 'packages/core/src/entries/web.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportAllDeclaration',
          message: 'Name each export: the entry lists are locked (entries/entries.test.ts).',
        },
      ],
    },
  },
  {
    // A cycle makes two modules one: neither can be read, tested or moved alone.
    files: ['packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The fetch entry runs where Node's globals are missing (Workers without nodejs_compat, Vercel's
    // Edge runtime): the core reaches Node only through common/node-builtin.ts, and only the node
    // entry, which runs on Node alone, may use Buffer.
    files: ['packages/core/src/**/*.ts'],
    ignores: [
      'packages/core/src/**/*.test.ts',
      'packages/core/src/**/*.test-support.ts',
      'packages/core/src/service/node-handler.ts',
      'packages/core/src/testing/**',
    ],
    rules: {
      'no-restricted-globals': [
        'error',
        {
          name: 'Buffer',
          message: 'Not on Workers: use Uint8Array, TextEncoder/TextDecoder or common/base64.ts.',
        },
        { name: 'process', message: 'Not on Workers: read it through common/node-builtin.ts.' },
        { name: 'setImmediate', message: 'Not on Workers: use setTimeout or queueMicrotask.' },
      ],
    },
  },
  {
    // The JSON reader compares code units from charCodeAt with `Char`'s members by design: the
    // enum is there so the build inlines each one as a number (body/json-characters.ts).
    files: ['packages/core/src/body/json-*.ts', 'packages/core/src/body/read-plant-json.ts'],
    rules: { '@typescript-eslint/no-unsafe-enum-comparison': 'off' },
  },
  {
    // Everything else sees only the core's public entries.
    files: ['packages/!(core)/**/*.ts', 'tools/**/*.ts', 'examples/**/*.ts'],
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
              message:
                'Import a public entry: @plantstore/core, or its /adapter, /openapi, /providers or /testing.',
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
