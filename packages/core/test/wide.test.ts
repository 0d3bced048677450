/**
 * Wide leaves: roots equal merkleize of their block for every size class,
 * writes inside them make new wide leaves (or expand them when a whole
 * subtree is written), inner nodes are readable, many are hashed together.
 */
import { merkleize } from '@ssztree/hasher';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, Tree } from '../src/index.js';
import { chunkOf, chunksOf, hex } from './helpers.js';

const seeds = (n: number, from = 1): number[] => Array.from({ length: n }, (_, i) => i + from);

describe('wide leaves', () => {
  it('hash to merkleize of their chunks, for 2..64 chunks', () => {
    const store = new NodeStore();
    for (let d = 1; d <= 6; d++) {
      const chunks = chunksOf(seeds(2 ** d, d * 100));
      const id = store.wide(chunks);
      expect(store.kind(id)).toBe('wide');
      expect(store.wideDepth(id)).toBe(d);
      expect(hex(store.hash(id))).toBe(hex(merkleize(chunks)));
      expect(hex(store.wideChunks(id))).toBe(hex(chunks));
    }
    for (const bad of [0, 1, 3, 128]) {
      expect(() => store.wide(new Uint8Array(32 * bad))).toThrow(CoreError);
    }
  });

  it('of one class are hashed together in one flush', () => {
    const store = new NodeStore();
    const ids = Array.from({ length: 100 }, (_, i) => store.wide(chunksOf(seeds(8, i * 8))));
    expect(store.stats().pending).toBe(100);
    store.flush();
    expect(store.stats().pending).toBe(0);
    ids.forEach((id, i) => expect(hex(store.hash(id))).toBe(hex(merkleize(chunksOf(seeds(8, i * 8))))));
  });

  it('take chunk writes as new wide leaves and stay immutable', () => {
    const store = new NodeStore();
    const tree = Tree.zero(5, store);
    const block = chunksOf(seeds(8));
    tree.setNode(4 + 1, store.wide(block)); // positions 8..15
    const model = new Uint8Array(32 * 32);
    model.set(block, 32 * 8);
    expect(hex(tree.root)).toBe(hex(merkleize(model)));
    const old = tree.clone();
    const wideBefore = tree.getNode(5);
    tree.setChunk(32 + 10, chunkOf(500));
    tree.setNodesAtDepth(5, [8, 15], [store.leaf(chunkOf(501)), store.zero(0)]);
    model.set(chunkOf(500), 32 * 10);
    model.set(chunkOf(501), 32 * 8);
    model.fill(0, 32 * 15, 32 * 16);
    expect(store.kind(tree.getNode(5))).toBe('wide');
    expect(tree.getNode(5)).not.toBe(wideBefore);
    expect(hex(tree.root)).toBe(hex(merkleize(model)));
    expect(old.getNode(5)).toBe(wideBefore);
    expect(hex(store.wideChunks(wideBefore))).toBe(hex(block));
    // No-op chunk writes keep the wide leaf and the root.
    const root = tree.rootNode;
    tree.setChunk(32 + 9, chunkOf(2));
    tree.setNodesAtDepth(5, [9, 11], [store.leaf(chunkOf(2)), store.leaf(chunkOf(4))]);
    expect(tree.rootNode).toBe(root);
  });

  it('expand into branches when a whole subtree is written inside them', () => {
    const store = new NodeStore();
    const tree = new Tree(store.wide(chunksOf(seeds(16))), store);
    const model = chunksOf(seeds(16));
    tree.setNode(4 + 2, store.fromChunks(chunksOf([70, 71]), 2)); // positions 8..11
    model.set(chunksOf([70, 71, 0, 0]), 32 * 8);
    expect(hex(tree.root)).toBe(hex(merkleize(model)));
    expect(store.kind(tree.rootNode)).toBe('branch');
    const t2 = new Tree(store.wide(chunksOf(seeds(16))), store);
    t2.setNodesAtDepth(2, [1], [store.fromChunks(chunksOf([90]), 2)]);
    const m2 = chunksOf(seeds(16));
    m2.set(chunksOf([90, 0, 0, 0]), 32 * 4);
    expect(hex(t2.root)).toBe(hex(merkleize(m2)));
    tree.dispose();
    t2.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('expose inner nodes on demand for reads, iteration and proofs', () => {
    const store = new NodeStore();
    const chunks = chunksOf(seeds(32));
    const tree = new Tree(store.wide(chunks), store);
    expect(hex(store.hash(tree.getNode(2)))).toBe(hex(merkleize(chunks.subarray(0, 32 * 16))));
    expect(hex(store.hash(tree.getNode(13)))).toBe(hex(merkleize(chunks.subarray(32 * 20, 32 * 24))));
    expect(hex(tree.getChunk(32 + 17))).toBe(hex(chunkOf(18)));
    expect(tree.getNodesAtDepth(5, 30, 2).map((id) => hex(store.hash(id)))).toEqual([hex(chunkOf(31)), hex(chunkOf(32))]);
    expect(() => tree.getNode(64)).toThrow(CoreError);
    store.collect();
    expect(store.stats().nodes).toBe(1);
  });
});
