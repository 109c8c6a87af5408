import { defineConfig, type Options } from 'tsup';

/** The one build every published package uses: ESM and CommonJS, each with its own types. */
export function packageBuild(entry: Record<string, string>): ReturnType<typeof defineConfig> {
  const options: Options = {
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    platform: 'node',
    treeshake: true,
    splitting: false,
  };
  return defineConfig(options);
}
