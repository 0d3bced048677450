import { defineConfig } from 'tsup';

export default defineConfig([
  // `cli.js` is the `ssztree` bin: ESM only (it awaits at top level), hence the shebang banner.
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    clean: false, // the build script empties dist/ first: the two configs build in parallel
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
  // `index` exports `main(argv, io)` for programmatic use: ESM + CJS with declarations,
  // like the library packages. `shims` gives the CJS build an `import.meta.url`.
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    shims: true,
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
  },
]);
