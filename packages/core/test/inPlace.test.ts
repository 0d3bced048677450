/**
 * In-place batch writes (core write/inPlace.ts): a caller that owns a root
 * outright (`InPlaceWrite.holders` is exactly its count) has the nodes only
 * its path reaches rewritten instead of copied. Checked here: the root id
 * stays and the root is the plain model's; every other holder (a clone, a
 * handle on a subtree) makes the paths through it copy, and what it holds
 * never changes; wide leaves and record pairs' halves are rewritten in
 * place; touched positions list
 * their ancestors again, and a claim the counts do not back is refused; a
 * batch that fails part way leaves no stale hash; and nothing leaks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { merkleize } from '@ssztree/hasher';
import { NodeStore, registerRecordLayout, registerRecordPairs, Tree } from '../src/index.js';
import { chunkOf, chunksOf, codeOf, expandRecord, hex, modelRoot, VALIDATOR_LAYOUT } from './helpers.js';

const DEPTH = 8;
const OWN = { holders: 1 };
const PAIR_BASE = registerRecordLayout(VALIDATOR_LAYOUT);
registerRecordPairs(PAIR_BASE);

function builtTree(store: NodeStore, seed: number): { tree: Tree; model: Uint8Array } {
  const model = chunksOf(Array.from({ length: 2 ** DEPTH }, (_, i) => seed + i));
  const tree = new Tree(store.fromChunks(model, DEPTH), store);
  store.collect();
  return { tree, model };
}

/** Writes chunk seeds at sorted unique indices, in place when the handle owns its root; returns whether the root was rewritten in place. */
function write(store: NodeStore, tree: Tree, model: Uint8Array, indices: number[], seed: number): boolean {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const leaves = sorted.map((i) => store.leaf(chunkOf(seed + i)));
  for (const i of sorted) model.set(chunkOf(seed + i), 32 * i);
  return tree.setNodesAtDepth(DEPTH, sorted, leaves, OWN);
}

describe('in-place batch writes', () => {
  it('rewrites an owned tree in place: same root id, the model root, no new branches', () => {
    const store = new NodeStore();
    const { tree, model } = builtTree(store, 1);
    tree.root;
    const root = tree.rootNode;
    const branches = store.stats().branches;
    expect(write(store, tree, model, [3, 77, 200], 5000)).toBe(true);
    expect(tree.rootNode).toBe(root);
    expect(store.stats().branches).toBe(branches);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
    // Twice before a flush: a branch listed already is listed again only if it must hash later.
    write(store, tree, model, [4, 5], 6000);
    write(store, tree, model, [4, 130], 7000);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
    tree.dispose();
    expect(store.stats().nodes).toBe(0);
  });

  it('copies through every node another holder reaches, which never changes', () => {
    const store = new NodeStore();
    const { tree, model } = builtTree(store, 2);
    const clone = tree.clone();
    const cloneRoot = hex(clone.root);
    // A clone shares the root: the whole write copies.
    expect(write(store, tree, model, [1, 100], 9000)).toBe(false);
    expect(hex(clone.root)).toBe(cloneRoot);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
    clone.dispose();
    // A handle on a subtree (the left half): writes under it copy, writes elsewhere go in place.
    const left = new Tree(tree.getNodeAtDepth(1, 0), store);
    const leftRoot = hex(left.root);
    const root = tree.rootNode;
    expect(write(store, tree, model, [2, 129, 250], 11000)).toBe(true);
    expect(tree.rootNode).toBe(root);
    expect(hex(left.root)).toBe(leftRoot);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
    left.dispose();
    tree.dispose();
    expect(store.stats().nodes).toBe(0);
  });

  it('writes in place only when the claim matches the count exactly', () => {
    const store = new NodeStore();
    const { tree, model } = builtTree(store, 3);
    const root = tree.rootNode;
    // Claiming a parent link the root does not have: the counts say otherwise, so the write copies.
    const leaves = [store.leaf(chunkOf(1))];
    model.set(chunkOf(1), 0);
    expect(tree.setNodesAtDepth(DEPTH, [0], leaves, { holders: 2 })).toBe(false);
    expect(tree.rootNode).not.toBe(root);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
    tree.dispose();
  });

  it('lists the ancestors of a touched position again, and refuses a touch under a shared path', () => {
    const store = new NodeStore();
    const { tree: inner, model: innerModel } = builtTree(store, 4);
    // An outer tree of depth 2 holding `inner` at position 1 (the outer root owned; inner held by the link and its handle).
    const outer = new Tree(store.zero(2), store);
    outer.setNodesAtDepth(2, [1], [inner.rootNode]);
    const outerModelRoot = () => {
      const z = new Uint8Array(32);
      const level = [z, Buffer.from(modelRoot(innerModel, DEPTH), 'hex'), z, z];
      return hex(store.hash(store.fromChunks(Buffer.concat(level.map((c) => Buffer.from(c))), 2)));
    };
    outer.root;
    const outerRoot = outer.rootNode;
    // The inner handle, vouched for by the outer (its link is the other holder), writes in place...
    expect(inner.setNodesAtDepth(DEPTH, [9], [store.leaf(chunkOf(42))], { holders: 2 })).toBe(true);
    innerModel.set(chunkOf(42), 32 * 9);
    // ...and the outer lists the path above it again.
    expect(outer.setNodesAtDepth(2, [1], [inner.rootNode], { holders: 1, touched: [true] })).toBe(true);
    expect(outer.rootNode).toBe(outerRoot);
    expect(hex(outer.root)).toBe(outerModelRoot());
    // A touch through a root someone else holds is a caller's bug: refused, not hashed wrong.
    const other = outer.clone();
    expect(codeOf(() => outer.setNodesAtDepth(2, [1], [inner.rootNode], { holders: 1, touched: [true] }))).toBe('BAD_INPUT');
    for (const t of [other, outer, inner]) t.dispose();
    expect(store.stats().nodes).toBe(0);
  });

  it('rewrites owned wide leaves in place, hashed up front or by the flush', () => {
    for (const count of [8, 256]) {
      const store = new NodeStore();
      const inner = 3;
      const depth = 9;
      const bytes = 32 << inner;
      const data = chunksOf(Array.from({ length: count * 8 }, (_, i) => i + 1));
      const tree = new Tree(store.fromPages({ data, offsets: undefined }, count, inner, depth), store);
      store.collect();
      tree.root;
      const root = tree.rootNode;
      const pages = Array.from({ length: count }, (_, p) => p).filter((p) => p % 3 !== 1);
      const slab = chunksOf(Array.from({ length: pages.length * 8 }, (_, i) => 100_000 + i));
      const offsets = pages.map((_, k) => k * bytes);
      const before = pages.map((p) => tree.recordAtDepth(depth, p));
      const created: number[] = [];
      expect(tree.setWidesAtDepth(depth, pages, inner, slab, offsets, created, OWN)).toBe(true);
      expect(tree.rootNode).toBe(root);
      expect(created).toEqual(before);
      const model = data.slice();
      pages.forEach((p, k) => model.set(slab.subarray(k * bytes, (k + 1) * bytes), p * bytes));
      expect(hex(tree.root)).toBe(modelRoot(model, depth + inner));
      tree.dispose();
      expect(store.stats().nodes).toBe(0);
    }
  });

  it('rewrites the halves of an owned record pair in place; a shared pair is copied', () => {
    const store = new NodeStore();
    const depth = 8;
    const n = 100;
    const bytes = new Uint8Array(121 * n).map((_, i) => (i * 31 + (i >>> 7)) & 0xff);
    const tree = new Tree(store.recordPairTreeFromBytes(PAIR_BASE, bytes, 0, n, depth), store);
    store.collect();
    const root = tree.rootNode;
    const pair = tree.recordAtDepth(depth - 1, 5); // elements 10 and 11
    const fresh = new Uint8Array(121).fill(9);
    tree.setNodesAtDepth(depth, [11], [store.record(PAIR_BASE, fresh, 0)], OWN);
    bytes.set(fresh, 121 * 11);
    expect(tree.rootNode).toBe(root);
    expect(tree.recordAtDepth(depth - 1, 5)).toBe(pair);
    expect(hex(tree.root)).toBe(recordsRoot(bytes, n, depth));
    // Held elsewhere, the pair is copied and the other holder keeps its bytes.
    const held = new Tree(pair, store);
    const heldRoot = hex(held.root);
    tree.setNodesAtDepth(depth, [10], [store.record(PAIR_BASE, fresh.fill(3), 0)], OWN);
    bytes.set(fresh, 121 * 10);
    expect(tree.recordAtDepth(depth - 1, 5)).not.toBe(pair);
    expect(hex(held.root)).toBe(heldRoot);
    expect(hex(tree.root)).toBe(recordsRoot(bytes, n, depth));
    held.dispose();
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('leaves no stale hash when a batch fails part way', () => {
    const store = new NodeStore();
    const { tree, model } = builtTree(store, 5);
    // Position (1, 1) becomes one leaf: writes below it fail.
    const leaf = chunkOf(77);
    tree.setNodesAtDepth(1, [1], [store.leaf(leaf)]);
    tree.root;
    const root = tree.rootNode;
    // Index 3 (left half) is written in place before index 200 (below the leaf) fails.
    expect(codeOf(() => write(store, tree, model, [3, 200], 20000))).toBeDefined();
    expect(tree.rootNode).toBe(root);
    const left = model.slice(0, 32 * 2 ** (DEPTH - 1));
    const expected = hex(store.hash(store.fromChunks(Buffer.concat([Buffer.from(merkleRoot(left, DEPTH - 1)), Buffer.from(leaf)]), 1)));
    expect(hex(tree.root)).toBe(expected);
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('property: in-place writes among clones and subtree handles keep every other version intact', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('write' as const), indices: fc.array(fc.nat(2 ** DEPTH - 1), { minLength: 1, maxLength: 12 }), seed: fc.nat(1 << 20) }),
            fc.record({ op: fc.constant('clone' as const) }),
            fc.record({ op: fc.constant('subtree' as const), depth: fc.integer({ min: 1, max: DEPTH }), index: fc.nat(2 ** DEPTH - 1) }),
            fc.record({ op: fc.constant('drop' as const), which: fc.nat(7) }),
            fc.record({ op: fc.constant('root' as const) }),
          ),
          { maxLength: 30 },
        ),
        (ops) => {
          const store = new NodeStore();
          const { tree, model } = builtTree(store, 7);
          const kept: { tree: Tree; root: string }[] = [];
          for (const step of ops) {
            if (step.op === 'write') write(store, tree, model, step.indices, step.seed * 1024);
            else if (step.op === 'clone') kept.push({ tree: tree.clone(), root: modelRoot(model, DEPTH) });
            else if (step.op === 'subtree') {
              const index = step.index >>> (DEPTH - step.depth);
              const width = 2 ** (DEPTH - step.depth);
              const part = model.slice(32 * index * width, 32 * (index + 1) * width);
              kept.push({ tree: new Tree(tree.getNodeAtDepth(step.depth, index), store), root: modelRoot(part, DEPTH - step.depth) });
            } else if (step.op === 'drop') {
              if (kept.length > 0) kept.splice(step.which % kept.length, 1)[0]!.tree.dispose();
            } else expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
            for (const k of kept) expect(hex(k.tree.root)).toBe(k.root);
          }
          expect(hex(tree.root)).toBe(modelRoot(model, DEPTH));
          for (const k of kept) k.tree.dispose();
          tree.dispose();
          store.collect();
          expect(store.stats().nodes).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** The root of `n` validator-shaped records as SSZ merkleizes them: each record's root, padded to depth. */
function recordsRoot(bytes: Uint8Array, n: number, depth: number): string {
  const roots = new Uint8Array(32 * n);
  for (let i = 0; i < n; i++) roots.set(merkleize(expandRecord(VALIDATOR_LAYOUT, bytes, i * 121)), 32 * i);
  return hex(merkleize(roots, 2 ** depth));
}

/** The root of `chunks` (2^depth of them) as bytes. */
function merkleRoot(chunks: Uint8Array, depth: number): Uint8Array {
  return Buffer.from(modelRoot(chunks, depth), 'hex');
}
