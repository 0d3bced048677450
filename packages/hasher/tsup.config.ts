import { defineConfig } from 'tsup';

// ESM + CJS with declarations. `shims` gives the CJS build an `import.meta.url`.
export default defineConfig({
  // The worker pool's thread entry is built beside the bundle (see parallel/pool.ts).
  entry: { index: 'src/index.ts', hashWorker: 'src/parallel/worker.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  shims: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'neutral',
});
