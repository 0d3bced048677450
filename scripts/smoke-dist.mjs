// Loads each package's built output the way a user would — ESM `import` and
// CJS `require` of the files its package.json exports name (not the `source`
// condition) — and checks it works: the hasher hashes, and every package
// exposes the same names in both formats. Run by .ci/run after the build.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

// The `@ssztree/types/immer` subpath (immer is an optional peer dependency,
// never bundled): produce gives a view whose root equals the value's, in
// both formats, and the frozen-value cache answers hashTreeRoot of the result.
{
  const base = new URL('../packages/types/', import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL('package.json', base), 'utf8'));
  const sub = manifest.exports['./immer'];
  const built = readFileSync(new URL(sub.import.default, base), 'utf8');
  assert.ok(/from ['"]immer['"]/.test(built), 'immer is imported from the peer dependency, not bundled');
  for (const [types, immer] of [
    [require(new URL(manifest.exports['.'].require.default, base).pathname), require(new URL(sub.require.default, base).pathname)],
    [await import(new URL(manifest.exports['.'].import.default, base).href), await import(new URL(sub.import.default, base).href)],
  ]) {
    const T = types.container({ a: types.uint64, xs: types.list(types.uint64Number, 100) }, 'T');
    let p = immer.produce(T, { a: 1n, xs: [1, 2, 3] }, (d) => {
      d.a = 2n;
      d.xs.push(4);
    });
    p = immer.produce(T, p, (d) => {
      d.xs[0] = 9;
    });
    const want = T.hashTreeRoot(T.deserialize(T.serialize(p.value)));
    assert.deepEqual(p.view.hashTreeRoot(), want, 'the produced view has the value root');
    assert.deepEqual(T.hashTreeRoot(p.value), want, 'the cached frozen root is the value root');
  }
  console.log('smoke: @ssztree/types/immer ok (ESM + CJS)');
}

// The built packages bundle for a browser: esbuild with platform `browser`
// (no `source` condition, so the dist files) fails on any static import of a
// Node built-in. The pool's Web Workers load dist/hashWorker.browser.js,
// which must import nothing at all (a module worker does not see the page's
// import map). (test/browser runs the library in Chromium, dist included.)
const { build } = await import('esbuild');
const root = new URL('..', import.meta.url).pathname;
for (const entry of ['@ssztree/types', '@ssztree/types/consensus', 'packages/hasher/dist/hashWorker.browser.js']) {
  const worker = entry.endsWith('.js');
  const out = await build({
    // The worker has no exports, only effects: bundle it as an entry of its own.
    ...(worker ? { entryPoints: [root + entry] } : { stdin: { contents: `export * from ${JSON.stringify(entry)};`, resolveDir: root } }),
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
  });
  const text = out.outputFiles[0].text;
  assert.ok(text.length > 10_000, `${entry}: the bundle is not empty`);
  assert.ok(!/\bfrom\s*["']node:|require\(["']node:/.test(text), `${entry}: the browser bundle reaches no node: module`);
  if (worker) {
    const own = readFileSync(new URL(`../${entry}`, import.meta.url), 'utf8');
    assert.ok(!/^\s*(import|export)\b[^(]*\bfrom\s*["']/m.test(own) && !/\bimport\s*\(/.test(own), `${entry}: imports nothing`);
  }
  console.log(`smoke: ${entry} bundles for the browser (${(text.length / 1024).toFixed(0)} KB)`);
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
