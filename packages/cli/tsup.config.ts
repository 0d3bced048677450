import { defineConfig } from 'tsup';

// ESM only: `cli.js` is the `ssztree` bin (hence the shebang banner), `index.js`
// exports `main(argv, io)` for programmatic use and tests.
export default defineConfig({
  entry: { cli: 'src/cli.ts', index: 'src/index.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  banner: { js: '#!/usr/bin/env node' },
});
