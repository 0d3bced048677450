import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:quick`: a subset of the suite that downloads nothing (no
// spec vectors, no browser) and runs in under a minute on 2 cores: the unit
// tests of each package (the hasher's API, selection and wasm kernel against
// the reference, the node store against its model, the codec, views and the
// CLI's parts), the layering rules, the README and docs examples and the
// docs checks. Left to `npm test`: the spec vectors, the differential runs
// against @chainsafe/ssz and lodestar, the fuzz corpus, soak, browser and
// demo runs, the tests that spawn npm or npx, and the slowest unit files
// (every backend over many sizes, large layers through the worker pool,
// reclamation and memory sweeps, each 5–25 s; the error sweep over every
// consensus type of every fork, 4000+ cases, over half of this subset's CPU
// time when it was in it).
// (A spread, not mergeConfig: that would append these globs to the full suite's.)
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'packages/hasher/test/{api,avx512,initHasher,nativeStatus,selection,subtrees,wasm}.test.ts',
      'packages/core/test/*.test.ts',
      'packages/types/test/*.test.ts',
      'packages/cli/test/{layering,snappy}.test.ts',
      'test/{architecture,readme,docs}.test.ts',
      'test/corpus/*.test.ts',
    ],
    exclude: [...configDefaults.exclude, 'packages/core/test/{memory,reclaim}.test.ts', 'packages/types/test/{disposeSweep,errorSweep}.test.ts'],
    // Both cores (the full suite's default leaves one to the main process): these files are small and independent.
    maxWorkers: 2,
  },
});
