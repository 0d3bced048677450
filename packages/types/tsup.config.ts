import { defineConfig } from 'tsup';

// ESM + CJS with declarations. `shims` gives the CJS build an `import.meta.url`.
export default defineConfig({
  entry: { index: 'src/index.ts', 'consensus/index': 'src/consensus/index.ts', 'immer/index': 'src/immer/index.ts' },
  // immer is an optional peer dependency, used only by the `./immer` subpath: never bundled.
  external: ['immer'],
  format: ['esm', 'cjs'],
  dts: true,
  shims: true,
  sourcemap: true,
  clean: true,
  // One shared chunk for both entries in CJS too, so classes (instanceof SszType) are the same across subpaths.
  splitting: true,
  target: 'node20',
  platform: 'neutral',
});
