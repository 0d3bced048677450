/**
 * Navigation and writes: generalized indices (number and bigint), zero
 * subtrees, batch writes, no-op writes, path sharing, iteration, list
 * lengths, and the typed errors for every misuse; `getNodeAtDepth`'s
 * direct walk against the gindex walk.
 */
import { merkleize, mixInLength, zeroHash } from '@ssztree/hasher';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeStore, Tree, gindexDepth, toGindex, verifySingleProof } from '../src/index.js';
import { chunkOf, chunksOf, codeOf, hex } from './helpers.js';


describe('zero subtrees', () => {
  it('are shared pre-hashed singletons for depths 0..64', () => {
    const store = new NodeStore();
    for (let d = 0; d <= 64; d++) {
      expect(hex(store.hash(store.zero(d)))).toBe(hex(zeroHash(d)));
      expect(store.zero(d)).toBe(store.zero(d));
      expect(store.isZero(store.zero(d))).toBe(true);
    }
    expect(store.left(store.zero(5))).toBe(store.zero(4));
    expect(codeOf(() => store.zero(65))).toBe('DEPTH_RANGE');
    expect(codeOf(() => store.left(store.zero(0)))).toBe('NOT_BRANCH');
  });
});

describe('generalized indices', () => {
  it('depth of numbers and bigints, including above 2^31', () => {
    expect(gindexDepth(1)).toBe(0);
    expect(gindexDepth(2 ** 31)).toBe(31);
    expect(gindexDepth(2 ** 31 - 1)).toBe(30);
    expect(gindexDepth(2 ** 52 + 12345)).toBe(52);
    expect(gindexDepth(2 ** 53 - 1)).toBe(52);
    expect(gindexDepth(1n << 100n)).toBe(100);
    expect(toGindex(3, 5)).toBe(13);
    expect(toGindex(60, 1)).toBe(2n ** 60n + 1n);
    for (const bad of [0, -1, 1.5, 2 ** 53, Number.NaN]) expect(codeOf(() => gindexDepth(bad))).toBe('GINDEX');
    expect(codeOf(() => gindexDepth(0n))).toBe('GINDEX');
    expect(codeOf(() => toGindex(3, 8))).toBe('INDEX_RANGE');
  });

  it('reads and writes deep positions through bigint gindices', () => {
    const store = new NodeStore();
    const tree = Tree.zero(64, store);
    const g = (1n << 64n) + (1n << 63n) + 12345n;
    tree.setChunk(g, chunkOf(7));
    expect(hex(tree.getChunk(g))).toBe(hex(chunkOf(7)));
    const proof = tree.singleProof(g);
    expect(verifySingleProof(tree.root, g, chunkOf(7), proof.branch)).toBe(true);
    // Position 0 at depth 64 can be checked against merkleize with virtual padding.
    const t2 = Tree.zero(64, store);
    t2.setChunk(1n << 64n, chunkOf(9));
    expect(hex(t2.root)).toBe(hex(merkleize(chunkOf(9), 2n ** 64n)));
    // Number gindices above 2^31 take the same path.
    const t3 = Tree.zero(40, store);
    t3.setChunk(2 ** 40 + 3, chunkOf(3));
    expect(t3.getNodeAtDepth(40, 3)).toBe(t3.getNode(2 ** 40 + 3));
    expect(hex(t3.root)).toBe(hex(merkleize(chunksOf([0, 0, 0, 3]), 2 ** 40)));
  });
});

describe('writes', () => {
  it('build new nodes along the written path only', () => {
    const store = new NodeStore();
    const tree = Tree.fromChunks(chunksOf(Array.from({ length: 256 }, (_, i) => i + 1)), 8, store);
    const before = store.stats();
    const old = tree.clone();
    tree.setChunk(256 + 77, chunkOf(999));
    const after = store.stats();
    expect(after.branches - before.branches).toBe(8);
    expect(after.leaves - before.leaves).toBe(1);
    expect(after.pending).toBe(8);
    // Siblings along the path are the very same nodes.
    expect(tree.getNode(2 + 1)).toBe(old.getNode(3));
    expect(tree.getNodeAtDepth(8, 76)).toBe(old.getNodeAtDepth(8, 76));
    tree.root;
    expect(store.stats().pending).toBe(0);
  });

  it('that store what is already there keep the existing nodes and root id', () => {
    const store = new NodeStore();
    const chunks = chunksOf(Array.from({ length: 64 }, (_, i) => i * 3));
    const tree = Tree.fromChunks(chunks, 6, store);
    const root = tree.rootNode;
    const leaves = store.stats().leaves;
    tree.setChunk(64 + 5, chunkOf(15));
    tree.setNodesAtDepth(6, [0, 1, 2, 63], [store.leaf(chunkOf(0)), store.leaf(chunkOf(3)), store.leaf(chunkOf(6)), store.leaf(chunkOf(189))]);
    tree.setNode(64 + 9, tree.getNode(64 + 9));
    tree.setNode(4, tree.getNode(4));
    expect(tree.rootNode).toBe(root);
    store.collect();
    expect(store.stats().leaves).toBe(leaves);
    expect(store.stats().pending).toBe(0);
    // A zero leaf written over a zero-chunk leaf is a no-op too.
    tree.setNode(64, store.zero(0));
    expect(tree.rootNode).toBe(root);
  });

  it('apply sorted batches in one pass and reject bad batches', () => {
    const store = new NodeStore();
    const tree = Tree.zero(10, store);
    const indices = [0, 5, 6, 511, 512, 1023];
    tree.setNodesAtDepth(10, indices, indices.map((i) => store.leaf(chunkOf(i + 1))));
    const model = new Uint8Array(32 * 1024);
    for (const i of indices) model.set(chunkOf(i + 1), 32 * i);
    expect(hex(tree.root)).toBe(hex(merkleize(model)));
    const leaf = store.leaf(chunkOf(1));
    expect(codeOf(() => tree.setNodesAtDepth(10, [3, 2], [leaf, leaf]))).toBe('UNSORTED');
    expect(codeOf(() => tree.setNodesAtDepth(10, [3, 3], [leaf, leaf]))).toBe('UNSORTED');
    expect(codeOf(() => tree.setNodesAtDepth(10, [1024], [leaf]))).toBe('INDEX_RANGE');
    expect(codeOf(() => tree.setNodesAtDepth(10, [1], [leaf, leaf]))).toBe('BAD_INPUT');
    expect(codeOf(() => tree.setNodesAtDepth(10, [1], [123456789]))).toBe('BAD_NODE');
    expect(codeOf(() => tree.setNodesAtDepth(11, [1], [leaf]))).toBe('NOT_BRANCH');
  });

  it('build from packed chunks across block and page boundaries', () => {
    const store = new NodeStore();
    for (const count of [1, 2, 3, 1023, 1024, 1025, 2047, 3001, 4096, 40_000, 65_537]) {
      const chunks = new Uint8Array(32 * count);
      for (let i = 0; i < chunks.length; i += 32) chunks.set(chunkOf((i >>> 5) % 60_000 + 1), i);
      const tree = Tree.fromChunks(chunks, 17, store);
      expect([count, hex(tree.root)]).toEqual([count, hex(merkleize(chunks, 2 ** 17))]);
      expect(hex(tree.getChunk(2 ** 17 + count - 1))).toBe(hex(chunks.subarray(32 * (count - 1))));
      if (count % 2 === 1) tree.dispose(); // leave holes for the next builds to reuse
    }
  });

  it('from chunks allocate leaves only where the bytes change', () => {
    const store = new NodeStore();
    const tree = Tree.fromChunks(chunksOf([1, 2, 3, 4, 5, 6, 7, 8]), 3, store);
    const root = tree.rootNode;
    const before = store.stats();
    tree.setChunksAtDepth(3, [0, 3, 7], chunksOf([1, 4, 8]));
    expect(tree.rootNode).toBe(root);
    expect(store.stats().leaves).toBe(before.leaves);
    const old = tree.clone();
    tree.setChunksAtDepth(3, [0, 3, 7], chunksOf([1, 40, 8]));
    expect(store.stats().leaves).toBe(before.leaves + 1); // the old version keeps its leaf
    expect(hex(old.root)).toBe(hex(merkleize(chunksOf([1, 2, 3, 4, 5, 6, 7, 8]))));
    expect(hex(tree.root)).toBe(hex(merkleize(chunksOf([1, 2, 3, 40, 5, 6, 7, 8]))));
    expect(codeOf(() => tree.setChunksAtDepth(3, [1, 2], new Uint8Array(32)))).toBe('BAD_INPUT');
  });

  it('that fail part way leave nothing behind', () => {
    const store = new NodeStore();
    const tree = Tree.fromChunks(chunksOf([1, 2, 3, 4]), 2, store);
    tree.setNode(3, store.leaf(chunkOf(9))); // positions 2 and 3 now lie below a leaf
    store.collect();
    const before = store.stats().nodes;
    const leaves = [0, 1, 2].map((i) => store.leaf(chunkOf(i + 50)));
    expect(codeOf(() => tree.setNodesAtDepth(2, [0, 1, 2], leaves))).toBe('NOT_BRANCH');
    expect(codeOf(() => tree.setChunksAtDepth(2, [0, 1, 2], chunksOf([50, 51, 52])))).toBe('NOT_BRANCH');
    store.collect();
    expect(store.stats().nodes).toBe(before);
    expect(hex(tree.getChunk(4))).toBe(hex(chunkOf(1)));
  });

  it('write subtrees at inner levels', () => {
    const store = new NodeStore();
    const tree = Tree.zero(4, store);
    tree.setNode(3, store.fromChunks(chunksOf([1, 2, 3]), 3));
    expect(hex(tree.root)).toBe(hex(merkleize(chunksOf([0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3]), 16)));
  });
});

describe('reads', () => {
  it('iterate a level in order from any start', () => {
    const store = new NodeStore();
    const seeds = Array.from({ length: 40 }, (_, i) => i + 1);
    const tree = Tree.fromChunks(chunksOf(seeds), 6, store);
    const got = tree.getNodesAtDepth(6, 3, 50).map((id) => hex(store.hash(id)));
    const want = Array.from({ length: 50 }, (_, k) => hex(chunkOf(k + 3 < 40 ? k + 4 : 0)));
    expect(got).toEqual(want);
    expect(tree.getNodesAtDepth(3, 0, 8).map((id) => hex(store.hash(id)))).toEqual(
      Array.from({ length: 8 }, (_, k) => hex(store.hash(tree.getNodeAtDepth(3, k)))),
    );
    expect(codeOf(() => tree.getNodesAtDepth(6, 60, 5))).toBe('INDEX_RANGE');
    expect(codeOf(() => tree.getNode(128))).toBe('NOT_BRANCH');
  });

  it('length-mixed list roots', () => {
    const store = new NodeStore();
    const contents = store.fromChunks(chunksOf([1, 2, 3]), 4);
    const list = new Tree(store.withLength(contents, 3), store);
    expect(hex(list.root)).toBe(hex(mixInLength(merkleize(chunksOf([1, 2, 3]), 16), 3)));
    expect(store.lengthOf(list.rootNode)).toBe(3);
    const big = store.withLength(contents, 2 ** 40 + 1);
    expect(store.lengthOf(big)).toBe(2 ** 40 + 1);
    expect(hex(store.hash(big))).toBe(hex(mixInLength(merkleize(chunksOf([1, 2, 3]), 16), 2 ** 40 + 1)));
  });
});

describe('typed errors', () => {
  it('for disposed trees, dead ids and bad input', () => {
    const store = new NodeStore();
    const tree = Tree.fromChunks(chunksOf([1, 2]), 1, store);
    const root = tree.rootNode;
    tree.dispose();
    tree.dispose();
    expect(tree.disposed).toBe(true);
    expect(codeOf(() => tree.root)).toBe('DISPOSED');
    expect(codeOf(() => tree.setChunk(2, chunkOf(1)))).toBe('DISPOSED');
    expect(codeOf(() => store.hash(root))).toBe('BAD_NODE');
    expect(codeOf(() => store.hash(-1))).toBe('BAD_NODE');
    expect(codeOf(() => store.hash(15))).toBe('BAD_NODE');
    expect(codeOf(() => store.leaf(new Uint8Array(31)))).toBe('BAD_INPUT');
    expect(codeOf(() => store.fromChunks(new Uint8Array(33), 3))).toBe('BAD_INPUT');
    expect(codeOf(() => store.fromChunks(new Uint8Array(32 * 9), 3))).toBe('INDEX_RANGE');
    expect(codeOf(() => store.release(store.leaf(chunkOf(1))))).toBe('BAD_NODE');
    expect(codeOf(() => store.chunk(store.branch(store.zero(0), store.zero(0))))).toBe('NOT_BRANCH');
  });

  it('for ids of another store', () => {
    const a = new NodeStore();
    const b = new NodeStore();
    const leaf = a.leaf(chunkOf(3));
    expect(codeOf(() => b.hash(leaf))).toBe('BAD_NODE');
  });
});

describe('getNodeAtDepth against the gindex walk', () => {
  it('through branches, zero subtrees and wide leaves, at depths past 31 up to 53', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(3, 12, 31, 33, 45, 52, 53),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 3 }),
        (depth, spots, wideDepth) => {
          const store = new NodeStore();
          // Positions at level `depth - wideDepth` (wide leaves of that inner depth there, or leaves), as doubles for deep levels.
          const level = depth - Math.min(wideDepth, depth);
          const inner = depth - level;
          const count = 2 ** level;
          const positions = [...new Set(spots.map((s) => Math.floor(s * count)))].sort((a, b) => a - b);
          const nodes = positions.map((_, k) =>
            inner === 0 ? store.leaf(chunkOf(k + 1)) : store.wide(new Uint8Array(32 << inner).map((_, b) => (b + 7 * k + 1) & 255)),
          );
          const root = store.setNodesAtDepth(store.zero(depth), level, positions, nodes);
          store.retain(root);
          const probes = [...positions.map((p) => p * 2 ** inner + (2 ** inner - 1)), 0, 2 ** depth - 1];
          for (const index of probes) {
            const g = (1n << BigInt(depth)) + BigInt(index);
            const a = store.getNodeAtDepth(root, depth, index);
            const b = store.getNode(root, g);
            expect(hex(store.hash(a))).toBe(hex(store.hash(b)));
          }
          for (let k = 0; k < positions.length; k++) expect(store.getNodeAtDepth(root, level, positions[k]!)).toBe(nodes[k]);
          store.release(root);
        },
      ),
      { numRuns: 60 },
    );
  });
});
