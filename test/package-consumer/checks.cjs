// What every consumer of the installed tarballs checks, ESM and CJS alike:
// given the loaded modules, each package does its job from its built files.
// Loaded by esm.mjs (through `import`) and cjs.cjs (through `require`), so
// both module formats run the same assertions.
'use strict';
const assert = require('node:assert/strict');

const hex = (bytes) => Buffer.from(bytes).toString('hex');

/** `m` holds the six entry points: hasher, core, types, consensus, immerSubpath (which loads the immer peer), cli. */
async function check(m, format) {
  const { hasher, core, types, consensus, immerSubpath, cli } = m;

  // hasher: a known answer, the wasm backend from the build, the worker pool from dist/hashWorker.
  assert.equal(hex(hasher.digest64(new Uint8Array(64))), 'f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b');
  assert.ok(hasher.listHashers().some((h) => h.name === 'wasm' && h.available), 'the wasm backend loads');
  hasher.configureThreads(1);
  const n = 1 << 15;
  const input = new Uint8Array(64 * n).map((_, i) => i * 7);
  const pooled = new Uint8Array(32 * n);
  hasher.hashInto(input, pooled);
  assert.ok(hasher.poolStats().jobsDone > 0, 'a worker thread hashed a share');
  assert.equal(hasher.poolStats().jobsRecovered, 0, 'no share fell back to the main thread');
  hasher.configureThreads(0);
  const single = new Uint8Array(32 * n);
  hasher.hashInto(input, single);
  assert.deepEqual(pooled, single, 'pooled and single-threaded layers agree');

  // core: a tree's root is the hasher's merkleize of its chunks; a clone's write leaves the original alone.
  const chunks = new Uint8Array(32 * 1024).map((_, i) => (i * 13) & 0xff);
  const tree = core.Tree.fromChunks(chunks, 10);
  assert.equal(hex(tree.root), hex(hasher.merkleize(chunks)));
  const next = tree.clone();
  next.setChunksAtDepth(10, [5], new Uint8Array(32).fill(1));
  const proof = next.multiproof([1024 + 5]);
  assert.ok(core.verifyMultiproof(next.root, proof.gindices, proof.leaves, proof.proof));
  assert.equal(hex(tree.root), hex(hasher.merkleize(chunks)));
  next.dispose();
  tree.dispose();

  // types + consensus: one shared set of classes across the subpaths; a container root.
  const Checkpoint = consensus.mainnet.phase0.Checkpoint;
  assert.ok(Checkpoint instanceof types.SszType, 'the consensus subpath shares the root entry classes');
  const mine = types.container({ epoch: types.uint64, root: types.byteVector(32) }, 'Checkpoint');
  const value = { epoch: 7n, root: new Uint8Array(32).fill(0xab) };
  const root = hex(Checkpoint.hashTreeRoot(value));
  assert.equal(hex(mine.hashTreeRoot(value)), root);
  assert.throws(() => Checkpoint.deserialize(new Uint8Array(39)), types.SszError);

  // types/immer with the immer peer dependency installed beside it.
  const T = types.container({ a: types.uint64, xs: types.list(types.uint64Number, 100) }, 'T');
  const p = immerSubpath.produce(T, { a: 1n, xs: [1, 2, 3] }, (d) => {
    d.a = 2n;
    d.xs.push(4);
  });
  assert.equal(hex(p.view.hashTreeRoot()), hex(T.hashTreeRoot(p.value)));

  // cli: main() in-process gives the library's root.
  const out = [];
  const io = {
    writeOut: (data) => out.push(typeof data === 'string' ? data : Buffer.from(data).toString()),
    writeErr: (text) => out.push(text),
    readStdin: async () => new TextEncoder().encode(JSON.stringify({ epoch: '7', root: `0x${'ab'.repeat(32)}` })),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    cwd: process.cwd(),
  };
  assert.equal(await cli.main(['root', 'phase0.Checkpoint', '-'], io), 0);
  assert.equal(out.join('').trim(), `0x${root}`);

  console.log(`consumer (${format}): hasher ${hasher.getHasher()}, core, types, types/consensus, types/immer, cli ok`);
}

module.exports = { check };
