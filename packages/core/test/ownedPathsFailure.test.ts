/**
 * The fused in-place passes (core write/ownedPaths.ts) when the hasher throws part
 * way: the error reaches the caller, and the written leaves, pairs and
 * paths are listed for the flush instead of keeping old hashes unlisted, so
 * the next root (with a working hasher) is the model's. The hasher is
 * wrapped here to fail on demand.
 */
import { describe, expect, it, vi } from 'vitest';
import { merkleize } from '@ssztree/hasher';
import { NodeStore, registerRecordLayout, registerRecordPairs, Tree } from '../src/index.js';
import { chunksOf, expandRecord, hex, modelRoot, VALIDATOR_LAYOUT } from './helpers.js';

const failing = vi.hoisted(() => ({ after: -1 }));

vi.mock('@ssztree/hasher', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@ssztree/hasher')>();
  return {
    ...actual,
    hashInto(input: Uint8Array, output: Uint8Array) {
      if (failing.after === 0) throw new Error('hasher failed (test)');
      if (failing.after > 0) failing.after--;
      actual.hashInto(input, output);
    },
  };
});

const OWN = { holders: 1 };

describe('fused in-place passes when the hasher throws', () => {
  it('a slab of wide leaves: the paths are listed, and the next root is right', () => {
    const store = new NodeStore();
    const inner = 3;
    const depth = 9;
    const bytes = 32 << inner;
    const data = chunksOf(Array.from({ length: 512 * 8 }, (_, i) => i + 1));
    const tree = new Tree(store.fromPages({ data, offsets: undefined }, 512, inner, depth), store);
    store.collect();
    tree.root;
    const pages = Array.from({ length: 512 }, (_, p) => p).filter((p) => p % 3 === 0);
    const slab = chunksOf(Array.from({ length: pages.length * 8 }, (_, i) => 50_000 + i));
    const model = data.slice();
    pages.forEach((p, k) => model.set(slab.subarray(k * bytes, (k + 1) * bytes), p * bytes));
    // The slab's pages hash (3 folds), then the paths: fail on the paths' fourth level.
    failing.after = 3 + 3;
    expect(() => tree.setWidesAtDepth(depth, pages, inner, slab, pages.map((_, k) => k * bytes), [], OWN)).toThrow('hasher failed');
    failing.after = -1;
    expect(store.stats().pending).toBeGreaterThan(0);
    expect(hex(tree.root)).toBe(modelRoot(model, depth + inner));
    tree.dispose();
    expect(store.stats().nodes).toBe(0);
  });

  it('records into pairs: the pairs and paths are listed, and the next root is right', () => {
    const store = new NodeStore();
    const base = registerRecordLayout(VALIDATOR_LAYOUT);
    registerRecordPairs(base);
    const size = VALIDATOR_LAYOUT.size;
    const level = 10;
    const n = 1000;
    const bytes = new Uint8Array(size * n).map((_, i) => (i * 7) & 0xff);
    const tree = new Tree(store.recordPairTreeFromBytes(base, bytes, 0, n, level), store);
    store.collect();
    tree.root;
    const indices = Array.from({ length: n }, (_, i) => i).filter((i) => i % 5 === 0);
    const nodes = indices.map((i, k) => {
      const record = new Uint8Array(size).fill(k & 0xff);
      bytes.set(record, size * i);
      return store.record(base, record, 0);
    });
    for (const after of [0, 5]) {
      // after 0: the pairs' own hashing fails; after 5: a level of the paths does.
      failing.after = after;
      expect(() => tree.setNodesAtDepth(level, indices, nodes, OWN)).toThrow('hasher failed');
      failing.after = -1;
      const roots = new Uint8Array(32 * n);
      for (let i = 0; i < n; i++) roots.set(merkleize(expandRecord(VALIDATOR_LAYOUT, bytes, i * size)), 32 * i);
      expect(hex(tree.root)).toBe(hex(merkleize(roots, 2 ** level)));
      nodes.forEach((_, k) => nodes[k] = store.record(base, new Uint8Array(size).fill((k + 100 + after) & 0xff), 0));
      indices.forEach((i, k) => bytes.set(new Uint8Array(size).fill((k + 100 + after) & 0xff), size * i));
    }
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});
