import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:quick`: a subset of the suite that downloads nothing (no
// spec vectors, no browser) and runs in well under a minute on 2 cores: the
// unit tests of each package (backends against the reference, the node
// store against its model, the codec, views and the CLI's parts), the
// layering and packaging rules, and the README tour. Left to `npm test`: the
// spec vectors, the differential runs against @chainsafe/ssz and lodestar,
// the fuzz corpus, soak, browser and demo runs, and the slowest unit files
// (large layers through the worker pool, reclamation sweeps), each 10–20 s.
// (A spread, not mergeConfig: that would append these globs to the full suite's.)
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'packages/hasher/test/{api,avx512,backends,initHasher,nativeStatus,selection,subtrees,wasm}.test.ts',
      'packages/core/test/*.test.ts',
      'packages/types/test/*.test.ts',
      'packages/cli/test/{bin,layering,snappy}.test.ts',
      'test/{architecture,packaging,readme}.test.ts',
      'test/corpus/*.test.ts',
    ],
    exclude: [...configDefaults.exclude, 'packages/core/test/reclaim.test.ts', 'packages/types/test/disposeSweep.test.ts'],
  },
});
