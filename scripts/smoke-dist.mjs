// Loads each package's built output the way a user would — ESM `import` and
// CJS `require` of the files its package.json exports name (not the `source`
// condition) — and checks it works: the hasher hashes, and every package
// exposes the same names in both formats. Run by .ci/run after the build.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

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
