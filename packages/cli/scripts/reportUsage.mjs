// Preloaded (`--import`) into CLI child processes by
// packages/cli/test/largeInputs.test.ts and bench/cli-inputs.ts: on exit,
// writes the process's peak resident memory and the time since this module
// ran to the file named by SSZTREE_TEST_USAGE, so a run on a large input can
// be compared with a run that reads nothing.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const file = process.env.SSZTREE_TEST_USAGE;
const loadedAt = performance.now();
if (file !== undefined && file !== '') {
  process.on('exit', () => {
    writeFileSync(file, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, ms: performance.now() - loadedAt }));
  });
}
