/**
 * Batch writes at positions of different depths (core write/positionBatch.ts,
 * `Tree.setNodesAt`): against a model of one `setNode` per position, on
 * random trees and random disjoint positions of every level; persistent
 * (the old version never changes, untouched subtrees are shared); no-ops
 * keep the root; in place under an owned root (same root id, the model's
 * root, touched positions rehashed); bad batches are refused with nothing
 * written; nothing leaks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, toGindex, Tree } from '../src/index.js';
import { chunkOf, chunksOf, hex } from './helpers.js';

const DEPTH = 7;

/** Disjoint positions (depth, index) of a tree of DEPTH, left to right: drawn by cutting the tree at random. */
const positions = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 2 ** DEPTH - 1 }), fc.integer({ min: 1, max: DEPTH })), { minLength: 1, maxLength: 12 })
  .map((cuts) => {
    const taken: [number, number][] = [];
    for (const [leaf, depth] of cuts) {
      const index = leaf >> (DEPTH - depth);
      // Keep it only when it neither contains nor lies inside one already taken.
      const overlaps = taken.some(([d, i]) => (d <= depth ? index >> (depth - d) === i : i >> (d - depth) === index));
      if (!overlaps) taken.push([depth, index]);
    }
    return taken.sort(([da, ia], [db, ib]) => ia * 2 ** (DEPTH - da) - ib * 2 ** (DEPTH - db));
  });

function tree(store: NodeStore, seed: number): Tree {
  return new Tree(store.fromChunks(chunksOf(Array.from({ length: 2 ** DEPTH }, (_, i) => seed + i)), DEPTH), store);
}

/** A subtree to write at `depth`: a leaf at the bottom, else a small built tree. */
function subtree(store: NodeStore, depth: number, seed: number): number {
  return depth === DEPTH ? store.leaf(chunkOf(seed)) : store.fromChunks(chunksOf([seed, seed + 1]), DEPTH - depth);
}

describe('setNodesAt: writes at positions of different depths', () => {
  it('equals one setNode per position, keeps the old version, shares the rest', () => {
    fc.assert(
      fc.property(positions, fc.integer({ min: 1, max: 1000 }), (at, seed) => {
        const store = new NodeStore();
        const base = tree(store, seed);
        const before = hex(base.root);
        const model = base.clone();
        const next = base.clone();
        const nodes = at.map(([d], j) => subtree(store, d, seed * 7 + j));
        at.forEach(([d, i], j) => model.setNode(toGindex(d, i), nodes[j]!));
        expect(next.setNodesAt(at.map(([d]) => d), at.map(([, i]) => i), nodes)).toBe(false);
        expect(hex(next.root)).toBe(hex(model.root));
        expect(hex(base.root)).toBe(before);
        // An untouched half is the very same node in both versions.
        for (const side of [0, 1]) {
          if (at.every(([d, i]) => i >> (d - 1) !== side)) expect(next.getNodeAtDepth(1, side)).toBe(base.getNodeAtDepth(1, side));
        }
        // Writing the same nodes again is a no-op: the root id stays.
        const root = next.rootNode;
        next.setNodesAt(at.map(([d]) => d), at.map(([, i]) => i), at.map(([d, i]) => next.getNodeAtDepth(d, i)));
        expect(next.rootNode).toBe(root);
        for (const t of [base, model, next]) t.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('goes in place under an owned root: same root id, the model root, touched positions rehashed', () => {
    const store = new NodeStore();
    const t = tree(store, 3);
    t.root;
    const modelTree = tree(store, 3);
    modelTree.setNode(toGindex(5, 1), store.leaf(chunkOf(9)));
    modelTree.setNode(toGindex(2, 2), subtree(store, 2, 50));
    modelTree.setNode(toGindex(7, 127), store.leaf(chunkOf(77)));
    const root = t.rootNode;
    expect(t.setNodesAt([5, 2, 7], [1, 2, 127], [store.leaf(chunkOf(9)), subtree(store, 2, 50), store.leaf(chunkOf(77))], { holders: 1 })).toBe(true);
    expect(t.rootNode).toBe(root);
    expect(hex(t.root)).toBe(hex(modelTree.root));
    // A node changed in place below (here: an owned leaf position rewritten through the one-level batch) is "touched".
    const q = t.getNodeAtDepth(2, 3);
    expect(t.setNodesAtDepth(7, [120], [store.leaf(chunkOf(5))], { holders: 1 })).toBe(true);
    modelTree.setNode(toGindex(7, 120), store.leaf(chunkOf(5)));
    expect(t.setNodesAt([2], [3], [q], { holders: 1, touched: [true] })).toBe(true);
    expect(hex(t.root)).toBe(hex(modelTree.root));
    t.dispose();
    modelTree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('refuses overlapping, unsorted and unreachable positions, writing nothing', () => {
    const store = new NodeStore();
    const t = tree(store, 4);
    const root = t.rootNode;
    const leaf = store.leaf(chunkOf(1));
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e instanceof CoreError ? e.code : String(e);
      }
      return 'none';
    };
    expect(code(() => t.setNodesAt([1, 3], [0, 1], [leaf, leaf]))).toBe('BAD_INPUT'); // (3, 1) is inside (1, 0)
    expect(code(() => t.setNodesAt([2, 2], [1, 1], [leaf, leaf]))).toBe('BAD_INPUT');
    expect(code(() => t.setNodesAt([2, 3], [1, 0], [leaf, leaf]))).toBe('UNSORTED');
    expect(code(() => t.setNodesAt([DEPTH + 1], [0], [leaf]))).toBe('NOT_BRANCH'); // below a leaf
    expect(code(() => t.setNodesAt([1], [2], [leaf]))).toBe('INDEX_RANGE');
    expect(code(() => t.setNodesAt([1], [0], [leaf, leaf]))).toBe('BAD_INPUT');
    expect(t.rootNode).toBe(root);
    // Below a zero subtree: branches are made on the way down.
    const z = new Tree(store.zero(4), store);
    z.setNodesAt([4, 1], [3, 1], [leaf, store.zero(3)]);
    const model = new Tree(store.zero(4), store);
    model.setNode(toGindex(4, 3), leaf);
    expect(hex(z.root)).toBe(hex(model.root));
    for (const x of [t, z, model]) x.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});
