/**
 * The fused copy of a slab (core write/copiedWides.ts) when it fails part
 * way: the hasher throwing at some level, or a pool that cannot grow. The
 * error reaches the caller, the old version keeps its root, nothing is left
 * pending, and everything the pass made is given back (the store holds
 * only the old version's nodes once swept). The hasher is wrapped here to
 * fail on demand.
 */
import { describe, expect, it, vi } from 'vitest';
import { CoreError } from '../src/errors.js';
import { NodeStore, Tree } from '../src/index.js';
import { chunksOf, hex, modelRoot } from './helpers.js';

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

const inner = 3;
const depth = 12;
const bytes = 32 << inner;

/** A tree of 3000 pages, a clone of it (so the write copies), and a dense batch for the clone. */
function setup() {
  const store = new NodeStore();
  const data = chunksOf(Array.from({ length: 3000 * 8 }, (_, i) => i + 1));
  const tree = new Tree(store.fromPages({ data, offsets: undefined }, 3000, inner, depth), store);
  tree.root;
  store.collect();
  const clone = tree.clone();
  const pages = Array.from({ length: 3000 }, (_, p) => p).filter((p) => p % 7 === 3);
  const slab = chunksOf(Array.from({ length: pages.length * 8 }, (_, i) => 90_000 + i));
  const model = data.slice();
  pages.forEach((p, k) => model.set(slab.subarray(k * bytes, (k + 1) * bytes), p * bytes));
  const write = () => clone.setWidesAtDepth(depth, pages, inner, slab, pages.map((_, k) => k * bytes), []);
  return { store, tree, clone, data, model, write, nodes: store.stats().nodes };
}

describe('fused copy of a slab when it fails part way', () => {
  // The slab's pages hash first (3 folds), then one call per level of the paths: fail at the first level, a middle one, the root's.
  for (const level of [1, 5, depth]) {
    it(`the hasher throwing at level ${level}: old version kept, nothing pending, everything made given back`, () => {
      const { store, tree, clone, data, model, write, nodes } = setup();
      const oldRoot = hex(tree.root);
      failing.after = 3 + level - 1;
      expect(write).toThrow('hasher failed');
      failing.after = -1;
      expect(store.stats().pending).toBe(0);
      expect(hex(tree.root)).toBe(oldRoot);
      expect(hex(clone.root)).toBe(oldRoot);
      store.collect();
      expect(store.stats().nodes).toBe(nodes);
      // The same write with a working hasher, then both versions dropped: every count was exact.
      write();
      expect(hex(clone.root)).toBe(modelRoot(model, depth + inner));
      expect(hex(tree.root)).toBe(modelRoot(data, depth + inner));
      tree.dispose();
      clone.dispose();
      store.collect();
      expect(store.stats().nodes).toBe(0);
    });
  }

  it('a branch pool that cannot grow: the pages taken are given back, the store unchanged', () => {
    const { store, tree, clone, data, model, write, nodes } = setup();
    const oldRoot = hex(tree.root);
    const branches = store.branches;
    const allocIds = branches.allocIds;
    branches.allocIds = () => {
      throw new CoreError('STORE_FULL', 'test');
    };
    expect(write).toThrow(CoreError);
    branches.allocIds = allocIds;
    expect(store.stats().pending).toBe(0);
    expect(store.stats().nodes).toBe(nodes);
    expect(hex(clone.root)).toBe(oldRoot);
    write();
    expect(hex(clone.root)).toBe(modelRoot(model, depth + inner));
    expect(hex(tree.root)).toBe(modelRoot(data, depth + inner));
    tree.dispose();
    clone.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});
