import { defineConfig } from 'tsup';

export default defineConfig([
  // ESM + CJS with declarations. `shims` gives the CJS build an `import.meta.url`.
  {
    // The worker pool's thread entry is built beside the bundle (see parallel/pool.ts).
    entry: { index: 'src/index.ts', hashWorker: 'src/parallel/worker.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    shims: true,
    sourcemap: true,
    clean: false, // the build script empties dist first: two configs building in parallel must not clean each other's output
    target: 'node20',
    platform: 'neutral',
  },
  // The Web Worker script for browsers, self-contained (its dependency bundled
  // in, no shared chunk): a module worker does not see the page's import map
  // and a bundler may not rewrite its imports, so it must import nothing.
  {
    entry: { 'hashWorker.browser': 'src/parallel/worker.ts' },
    format: ['esm'],
    noExternal: [/.*/],
    splitting: false,
    sourcemap: true,
    clean: false,
    target: 'es2022',
    platform: 'browser',
  },
]);
