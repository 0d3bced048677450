/**
 * Deferred release: the old version of a handle whose root is replaced (a
 * write, a commit; its root a hashed branch) is not freed on the spot but by
 * the next `settle()` — in a macrotask, in `collect()` / `stats()`, or when a
 * pool would otherwise grow. Checked here: the old root stays live until
 * then and is freed by it; a disposed version is deferred the same way; a
 * node taken again before the settle survives it; unhashed roots and
 * non-branches still free at once; synchronous loops that never settle
 * (replacing roots, or disposing old versions) keep the pools bounded; and
 * surviving versions never change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeStore, Tree } from '../src/index.js';
import { chunkOf, chunksOf, hex, modelRoot } from './helpers.js';

const DEPTH = 8;

function builtTree(store: NodeStore, seed: number): { tree: Tree; model: Uint8Array } {
  const model = chunksOf(Array.from({ length: 2 ** DEPTH }, (_, i) => seed + i));
  const tree = new Tree(store.fromChunks(model, DEPTH), store);
  store.collect(); // the built root is held now: off the nursery, whose sweeps free any unheld node
  return { tree, model };
}

/** Writes a few leaves through the handle (its old root is released) and returns the old root's id. */
function writeSome(store: NodeStore, tree: Tree, model: Uint8Array, seed: number): number {
  const old = tree.rootNode;
  const indices = [seed % 7, 40 + (seed % 11), 200 + (seed % 13)];
  tree.setNodesAtDepth(DEPTH, indices, indices.map((i) => store.leaf(chunkOf(seed * 1000 + i))));
  for (const i of indices) model.set(chunkOf(seed * 1000 + i), 32 * i);
  return old;
}

describe('deferred release', () => {
  it('keeps a released hashed root live until settle, which frees what only it held', () => {
    const store = new NodeStore();
    const baseline = store.stats().nodes;
    const { tree, model } = builtTree(store, 1);
    const full = store.stats().nodes;
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
    const old = writeSome(store, tree, model, 3);
    tree.root; // hashes the new version
    expect(store.deferred.length).toBe(1);
    expect(() => store.check(old)).not.toThrow(); // still live: nothing walked the old version yet
    expect(store.settle()).toBe(true);
    expect(store.deferred.length).toBe(0);
    expect(() => store.check(old)).toThrow(/not live/);
    expect(store.settle()).toBe(false);
    // Only the replaced paths were freed: the new version holds as many nodes as the old one did.
    expect(store.stats().nodes).toBe(full);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
    tree.dispose();
    expect(store.stats().nodes).toBe(baseline); // stats() settles first
  });

  it('frees replaced versions in a macrotask', async () => {
    const store = new NodeStore();
    const { tree } = builtTree(store, 2);
    const root = tree.rootNode;
    tree.rootNode = store.zero(DEPTH);
    expect(store.deferred.length).toBe(1);
    expect(() => store.check(root)).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.deferred.length).toBe(0);
    expect(() => store.check(root)).toThrow(/not live/);
  });

  it('defers a disposed version like a replaced one: its hashed root is freed by the next settle or macrotask', async () => {
    const store = new NodeStore();
    const { tree } = builtTree(store, 3);
    const root = tree.rootNode;
    tree.dispose();
    expect(tree.disposed).toBe(true);
    expect(store.deferred.length).toBe(1);
    expect(() => store.check(root)).not.toThrow(); // nothing walked yet: dispose() is O(1)
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.deferred.length).toBe(0);
    expect(() => store.check(root)).toThrow(/not live/);
    expect(store.stats().nodes).toBe(0);
    // An unhashed root is freed at once (a deferred one would be hashed for nothing).
    const { tree: second, model } = builtTree(store, 4);
    writeSome(store, second, model, 5);
    const pending = second.rootNode;
    second.dispose();
    expect(() => store.check(pending)).toThrow(/not live/);
    expect(store.stats().nodes).toBe(0);
  });

  it('keeps the pools bounded in a synchronous clone → write → root → dispose-the-old loop', () => {
    // A client's state cache in a loop that never yields: each block writes a clone of the head, then
    // drops the old head. Its release is deferred; the next allocations settle it before a pool grows.
    const store = new NodeStore();
    let { tree: head, model } = builtTree(store, 12);
    head.root;
    let after10 = 0;
    for (let round = 0; round < 200; round++) {
      const next = head.clone();
      writeSome(store, next, model, 300 + round);
      next.root;
      head.dispose();
      head = next;
      if (round === 10) after10 = store.branches.top;
    }
    expect(store.branches.top).toBeLessThanOrEqual(after10 + 8);
    expect(hex(head.root)).toBe(modelRoot(model, DEPTH));
    head.dispose();
    expect(store.stats().nodes).toBe(0);
  });

  it('lets a node taken again before the settle survive it (and defers it once however often released)', () => {
    const store = new NodeStore();
    const { tree, model } = builtTree(store, 4);
    const root = tree.rootNode;
    const expected = hex(tree.root);
    tree.rootNode = store.zero(DEPTH);
    // Taken again by id while its release is deferred, replaced again, and taken once more.
    const again = new Tree(root, store);
    again.rootNode = store.zero(DEPTH);
    const third = new Tree(root, store);
    expect(store.deferred.length).toBe(1);
    store.settle();
    expect(hex(third.root)).toBe(expected);
    expect(hex(third.getChunk(2 ** DEPTH + 5))).toBe(hex(model.subarray(160, 192)));
    third.dispose();
    for (const t of [tree, again]) t.dispose();
    expect(store.stats().nodes).toBe(0);
  });

  it('frees an unhashed root and a non-branch root at once', () => {
    const store = new NodeStore();
    const { tree, model } = builtTree(store, 5);
    writeSome(store, tree, model, 6); // not hashed yet: its root is pending
    const pending = tree.rootNode;
    tree.rootNode = store.zero(DEPTH);
    expect(store.deferred.length).toBe(1); // the built version's root (hashed); not the pending one
    expect(() => store.check(pending)).toThrow(/not live/);
    // (Making the leaf may settle the deferred root: the leaf pool has no free slot, and settling comes
    // before growing.)
    const leaf = new Tree(store.leaf(chunkOf(9)), store);
    const id = leaf.rootNode;
    const before = store.deferred.length;
    leaf.rootNode = store.zero(0);
    expect(() => store.check(id)).toThrow(/not live/);
    expect(store.deferred.length).toBe(before);
  });

  it('keeps the pools bounded in a synchronous loop that never settles explicitly', () => {
    const store = new NodeStore();
    const { tree, model } = builtTree(store, 7);
    tree.root;
    // Branches only: the new leaves are floating until linked, and a freed floating slot waits for the
    // nursery's sweep (a dispose or a task turn), which this loop never gives: that is the nursery's rule.
    const tops = () => store.branches.top;
    let after10 = 0;
    for (let round = 0; round < 200; round++) {
      writeSome(store, tree, model, 100 + round);
      tree.root;
      if (round === 10) after10 = tops();
    }
    // Each round frees the last round's paths when its own allocations find the free stacks empty.
    expect(tops()).toBeLessThanOrEqual(after10 + 8);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
  });

  it('property: settling at any point never changes a surviving version', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(40), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 25 }), (steps) => {
        const store = new NodeStore();
        const { tree, model } = builtTree(store, 11);
        const kept: { tree: Tree; root: string; model: Uint8Array }[] = [];
        for (const [seed, keep, settle] of steps) {
          if (keep) kept.push({ tree: tree.clone(), root: hex(tree.root), model: model.slice() });
          writeSome(store, tree, model, seed + 1);
          if (seed % 3 === 0) tree.root;
          if (settle) store.settle();
          if (kept.length > 3) kept.shift()!.tree.dispose();
        }
        store.settle();
        for (const k of kept) {
          expect(hex(k.tree.root)).toBe(k.root);
          expect(hex(k.tree.getChunk(2 ** DEPTH + 41))).toBe(hex(k.model.subarray(32 * 41, 32 * 42)));
        }
        expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
      }),
      { numRuns: 60 },
    );
  });
});
