// A .mjs file, so that Next.js's global types (which make NODE_ENV a required variable) stay out of
// the example's type check, which covers the test files too.
/** @type {import('next').NextConfig} */
const config = {
  // Next.js reads this tsconfig, and adds what it needs to it at every build; `typecheck` uses tsconfig.json.
  typescript: { ignoreBuildErrors: true, tsconfigPath: 'tsconfig.next.json' },
  // The packages are read from their TypeScript sources in this repository (tsconfig paths); the
  // example's `typecheck` script checks the types, so the build does not check them a second time.
  // The route's answers are small JSON and a proxy or CDN in front usually compresses; Next.js's own
  // compression would add Accept-Encoding to every answer's Vary (docs/hosts/nextjs.md).
  compress: false,
};

export default config;
