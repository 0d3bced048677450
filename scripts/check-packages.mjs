#!/usr/bin/env node
/**
 * Checks what we publish as a user receives it, outside the repository:
 *
 *   1. packs the four packages with pnpm (each `prepack` builds its package)
 *      and inspects every tarball (scripts/packages/pack.mjs);
 *   2. lints the tarballs with publint and @arethetypeswrong/cli (lint.mjs);
 *   3. installs them with npm into a new project in the temp directory and
 *      runs an ESM, a CJS and a type-checked TS consumer, the package
 *      READMEs' examples, the `ssztree` bin and the native backend check
 *      (consumer.mjs);
 *   4. installs the hasher with pnpm, without and then with its build
 *      allowed, as its README says (pnpmConsumer.mjs).
 *
 * Needs the npm registry for the consumers' third-party dependencies (npm's
 * cache serves repeats). Run by .ci/run; by hand: `pnpm run check:packages`
 * (`--keep` leaves the temp directory for a look).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmConsumer } from './packages/consumer.mjs';
import { lint } from './packages/lint.mjs';
import { inspect, PACKAGES, packAll } from './packages/pack.mjs';
import { pnpmConsumer } from './packages/pnpmConsumer.mjs';
import { step } from './packages/run.mjs';

const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'ssztree-packages-'));
try {
  const tarballs = packAll(join(work, 'tarballs'));
  step(`pnpm pack (prepack builds): ${PACKAGES.length} tarballs`);
  for (const dir of PACKAGES) step(`${inspect(dir, tarballs[dir], join(work, 'unpacked', dir))}; ${lint(tarballs[dir])}`);
  npmConsumer(tarballs, join(work, 'npm-consumer'));
  pnpmConsumer(tarballs.hasher, join(work, 'pnpm-consumer'));
  console.log(`check-packages: all ok in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} finally {
  if (process.argv.includes('--keep')) console.log(`check-packages: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
