// Loads each package's built output the way a user would — ESM `import` and
// CJS `require` of the files its package.json exports name (not the `source`
// condition) — and checks it works: the hasher hashes, and every package
// exposes the same names in both formats. Run by .ci/run after the build.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

for (const dir of ['hasher', 'core', 'types']) {
  const base = new URL(`../packages/${dir}/`, import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL('package.json', base), 'utf8'));
  const main = manifest.exports['.'];
  const cjs = require(new URL(main.require.default, base).pathname);
  const esm = await import(new URL(main.import.default, base).href);
  assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort(), `${manifest.name}: ESM and CJS export the same names`);
  assert.ok(Object.keys(esm).length > 0, `${manifest.name} exports something`);
  if (dir === 'hasher') {
    for (const h of [cjs, esm]) {
      const hex = Buffer.from(h.digest64(new Uint8Array(64))).toString('hex');
      assert.equal(hex, 'f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b');
      assert.ok(h.listHashers().some((x) => x.name === 'wasm' && x.available), 'the wasm backend loads from the build');
      // The worker pool starts its thread from the built hashWorker entry.
      h.configureThreads(1);
      const n = 1 << 15;
      const input = new Uint8Array(64 * n).map((_, i) => i * 7);
      const pooled = new Uint8Array(32 * n);
      h.hashInto(input, pooled);
      assert.equal(h.poolStats().jobsDone > 0, true, 'a worker hashed a share');
      assert.equal(h.poolStats().jobsRecovered, 0, 'no share was recovered on the main thread');
      h.configureThreads(0);
      const single = new Uint8Array(32 * n);
      h.hashInto(input, single);
      assert.deepEqual(pooled, single, 'pooled and single-threaded layers are identical');
    }
  }
  console.log(`smoke: ${manifest.name} ok (${Object.keys(esm).length} exports, ESM + CJS)`);
}

// The built `ssztree` bin runs: it lists the types, and the root of a value
// read from stdin equals the built library's.
const cli = fileURLToPath(new URL('../packages/cli/dist/cli.js', import.meta.url));
const names = execFileSync(process.execPath, [cli, 'types', 'electra'], { encoding: 'utf8' }).split('\n');
assert.ok(names.includes('electra.BeaconState'), 'ssztree types lists electra.BeaconState');
const { mainnet } = await import(new URL('../packages/types/dist/consensus/index.js', import.meta.url).href);
const checkpoint = { epoch: '7', root: `0x${'ab'.repeat(32)}` };
const printed = execFileSync(process.execPath, [cli, 'root', 'phase0.Checkpoint', '-'], { input: JSON.stringify(checkpoint), encoding: 'utf8' }).trim();
const expected = `0x${Buffer.from(mainnet.phase0.Checkpoint.hashTreeRoot(mainnet.phase0.Checkpoint.fromJson(checkpoint))).toString('hex')}`;
assert.equal(printed, expected, 'ssztree root of a JSON checkpoint on stdin');
console.log(`smoke: @ssztree/cli ok (ssztree types: ${names.filter((n) => n !== '').length} electra types, root from stdin)`);
