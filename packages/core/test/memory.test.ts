/**
 * Node size regression tests: the bytes the store holds per node, for one
 * large tree and for many versions sharing it.
 */
import { describe, expect, it } from 'vitest';
import { NodeStore, Tree } from '../src/index.js';
import { chunkOf } from './helpers.js';

describe('memory per node', () => {
  it('a branch costs 48 bytes and a leaf 40, hash included', () => {
    const store = new NodeStore();
    expect(store.branches.h8.length).toBe(0); // pages come with the first node
    store.leaf(chunkOf(1));
    store.branch(store.zero(0), store.zero(0));
    const perBranch = store.branches.byteLength() / (store.branches.h8.length * store.branches.pageSize);
    const perLeaf = store.leaves.byteLength() / (store.leaves.h8.length * store.leaves.pageSize);
    expect(perBranch).toBeCloseTo(48, 1);
    expect(perLeaf).toBeCloseTo(40, 1);
  });

  it('a full tree of 2^17 leaves averages at most 48 bytes per node', () => {
    const store = new NodeStore();
    const chunks = new Uint8Array(32 << 17);
    for (let i = 0; i < chunks.length; i += 32) chunks.set(chunkOf((i >>> 5) + 1), i);
    const tree = Tree.fromChunks(chunks, 17, store);
    tree.root;
    const s = store.stats();
    expect(s.nodes).toBe(2 ** 18 - 1);
    expect(s.bytes / s.nodes).toBeLessThanOrEqual(48);
  });

  it('100 versions cost no more than the nodes they do not share', () => {
    const store = new NodeStore();
    const depth = 16;
    const chunks = new Uint8Array(32 << depth);
    for (let i = 0; i < chunks.length; i += 32) chunks.set(chunkOf((i >>> 5) + 1), i);
    const base = Tree.fromChunks(chunks, depth, store);
    base.root;
    const before = store.stats();
    const versions: Tree[] = [];
    let prev = base;
    let x = 12345;
    for (let v = 0; v < 100; v++) {
      const next = prev.clone();
      const indices = new Set<number>();
      for (let k = 0; k < 256; k++) indices.add((x = (Math.imul(x, 1103515245) + 12345) >>> 0) % 2 ** depth);
      const sorted = [...indices].sort((a, b) => a - b);
      next.setNodesAtDepth(depth, sorted, sorted.map((i) => store.leaf(chunkOf(i + v + 7))));
      next.root;
      versions.push(next);
      prev = next;
    }
    store.collect();
    const after = store.stats();
    const unshared = after.nodes - before.nodes;
    // Whole pages are allocated as pools grow: allow one page per pool of slack.
    const pageSlack = 48 * store.branches.pageSize + 40 * store.leaves.pageSize;
    expect(after.bytes - before.bytes).toBeLessThanOrEqual(48 * unshared + pageSlack);
  });
});

describe('memory stays flat when small builds are made and dropped', () => {
  // Regression: one-node bulk builds (an element's one-chunk subtree) used to
  // take fresh slots instead of freed ones, so the store grew without bound
  // while holding no live node (found by the fuzz harness).
  it('one-chunk and few-chunk fromChunks builds reuse freed slots', () => {
    const store = new NodeStore();
    const chunk = chunkOf(3);
    const sizes: number[] = [];
    for (let round = 0; round < 12; round++) {
      const leaves = Array.from({ length: 4096 }, (_, i) => store.fromChunks(i % 3 === 0 ? chunk : new Uint8Array(96).fill(i), i % 3 === 0 ? 0 : 2));
      const tree = new Tree(store.setNodesAtDepth(store.zero(12), 12, leaves.map((_, i) => i), leaves), store);
      tree.root;
      tree.dispose();
      store.collect();
      expect(store.stats().nodes).toBe(0);
      sizes.push(store.stats().bytes);
    }
    // After the first rounds have sized the pools, nothing more is allocated.
    expect(sizes.at(-1)).toBe(sizes[3]);
  });
});
