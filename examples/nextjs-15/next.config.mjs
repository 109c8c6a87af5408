// A .mjs file, so that Next.js's global types (which make NODE_ENV a required variable) stay out of
// the example's type check, which covers the test files too.
/** @type {import('next').NextConfig} */
const config = {
  // The route files import the Next.js example's sources (examples/nextjs/src, tsconfig paths), and
  // the packages are read from their TypeScript sources in this repository: webpack compiles files
  // outside this folder only with externalDir.
  experimental: { externalDir: true },
  // The example's `typecheck` script checks the types (tsconfig.json); the build does not check them
  // a second time, nor lint them (the repository's lint does). Next.js reads tsconfig.next.json, and
  // adds what it needs to it at every build.
  typescript: { ignoreBuildErrors: true, tsconfigPath: 'tsconfig.next.json' },
  eslint: { ignoreDuringBuilds: true },
  // The route's answers are small JSON and a proxy or CDN in front usually compresses; Next.js's own
  // compression would add Accept-Encoding to every answer's Vary (docs/hosts/nextjs.md).
  compress: false,
};

export default config;
