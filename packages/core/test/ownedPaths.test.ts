/**
 * The fused in-place writes (core write/ownedPaths.ts): an owned
 * `setWidesAtDepth` batch of at least 64 pages whose roots were hashed up
 * front (ownedWides.ts), and an owned `setNodesAtDepth` batch of at least
 * 64 base records into record pairs (ownedPairs.ts), are written and their
 * paths hashed in one pass, with nothing left pending. Checked here: the
 * root id stays and the root is the plain model's; every case the passes
 * do not take (a shared path, a pending old leaf, a path through a zero
 * subtree, a position below a leaf, an odd last record, a small batch)
 * goes through the general walk, with its result or error; pending nodes
 * beside the paths are hashed before they are read; writes of the bytes
 * already there change nothing; and properties over random mixes of large
 * and small batches, clones and roots.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { merkleize } from '@ssztree/hasher';
import { NodeStore, registerRecordLayout, registerRecordPairs, Tree } from '../src/index.js';
import { chunksOf, codeOf, expandRecord, hex, modelRoot, VALIDATOR_LAYOUT } from './helpers.js';
import { findOwnedPaths, pathNodes } from '../src/write/ownedPaths.js';

const INNER = 3;
const PAGE = 32 << INNER;
const DEPTH = 9;
const PAGES = 2 ** DEPTH;
const OWN = { holders: 1 };

function pagesTree(store: NodeStore, count = PAGES, seed = 1): { tree: Tree; model: Uint8Array } {
  const data = chunksOf(Array.from({ length: count * 8 }, (_, i) => seed + i));
  const tree = new Tree(store.fromPages({ data, offsets: undefined }, count, INNER, DEPTH), store);
  store.collect();
  tree.root;
  const model = new Uint8Array(PAGES * PAGE);
  model.set(data);
  return { tree, model };
}

/** Writes fresh bytes (from `seed`) to the sorted unique `pages`, in place where owned; returns the in-place flag. */
function writePages(tree: Tree, model: Uint8Array, pages: readonly number[], seed: number): boolean {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const slab = chunksOf(Array.from({ length: sorted.length * 8 }, (_, i) => seed + i));
  const offsets = sorted.map((_, k) => k * PAGE);
  sorted.forEach((p, k) => model.set(slab.subarray(k * PAGE, (k + 1) * PAGE), p * PAGE));
  return tree.setWidesAtDepth(DEPTH, sorted, INNER, slab, offsets, [], OWN);
}

const every = (step: number, from = 0) => Array.from({ length: PAGES }, (_, p) => p).filter((p) => p % step === from);

type Op = { op: 'write'; positions: number[]; seed: number } | { op: 'clone' } | { op: 'drop'; which: number } | { op: 'root' };

/** Random op sequences: writes of up to `most` distinct positions below `count`, clones, drops and roots. */
const opSequences = (count: number, most: number, seeds: number, length: number) =>
  fc.array(
    fc.oneof(
      fc.record({ op: fc.constant('write' as const), positions: fc.uniqueArray(fc.nat(count - 1), { minLength: 1, maxLength: most }), seed: fc.nat(seeds) }),
      fc.record({ op: fc.constant('clone' as const) }),
      fc.record({ op: fc.constant('drop' as const), which: fc.nat(7) }),
      fc.record({ op: fc.constant('root' as const) }),
    ),
    { maxLength: length },
  ) as fc.Arbitrary<Op[]>;

/** Runs `ops` on `tree` (written by `write`, whose model's root is `root()`), checking every kept clone at the end. */
function runOps(store: NodeStore, tree: Tree, ops: readonly Op[], write: (positions: number[], seed: number) => void, root: () => string): void {
  const kept: { tree: Tree; root: string }[] = [];
  for (const step of ops) {
    if (step.op === 'write') write(step.positions, step.seed);
    else if (step.op === 'clone') kept.push({ tree: tree.clone(), root: root() });
    else if (step.op === 'drop') {
      if (kept.length > 0) kept.splice(step.which % kept.length, 1)[0]!.tree.dispose();
    } else expect(hex(tree.root)).toBe(root());
  }
  expect(hex(tree.root)).toBe(root());
  for (const k of kept) expect(hex(k.tree.root)).toBe(k.root);
  for (const k of kept) k.tree.dispose();
  tree.dispose();
  store.collect();
  expect(store.stats().nodes).toBe(0);
}

describe('fused in-place writes of wide-leaf slabs', () => {
  it('writes and hashes the paths in one pass: same root id and nodes, nothing pending, the model root', () => {
    const store = new NodeStore();
    const { tree, model } = pagesTree(store);
    const root = tree.rootNode;
    const nodes = store.stats().nodes;
    expect(writePages(tree, model, every(5), 10_000)).toBe(true);
    expect(tree.rootNode).toBe(root);
    expect(store.stats().nodes).toBe(nodes);
    expect(store.stats().pending).toBe(0);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH + INNER));
    tree.dispose();
    expect(store.stats().nodes).toBe(0);
  });

  it('below 64 pages the walk writes in place and the flush hashes', () => {
    const store = new NodeStore();
    const { tree, model } = pagesTree(store);
    expect(writePages(tree, model, every(16), 20_000)).toBe(true);
    expect(store.stats().pending).toBeGreaterThan(0);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH + INNER));
    tree.dispose();
  });

  it('hashes pending nodes beside the paths first, and leaves pending old leaves to the walk', () => {
    const store = new NodeStore();
    const { tree, model } = pagesTree(store);
    // A small batch leaves its pages and paths pending (no root asked for) ...
    // ... beside which a large batch writes (page 0 beside pending page 1, 404 beside 405): the pending
    // nodes are hashed before their parents read them, and the batch leaves nothing pending.
    writePages(tree, model, [1, 2, 3, 405], 30_000);
    expect(store.stats().pending).toBeGreaterThan(0);
    expect(writePages(tree, model, every(4), 40_000)).toBe(true);
    expect(store.stats().pending).toBe(0);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH + INNER));
    // A large batch over pages still pending goes through the walk, which lists its paths for the flush.
    writePages(tree, model, [5, 6, 7], 50_000);
    expect(writePages(tree, model, [...every(3), 5, 7], 60_000)).toBe(true);
    expect(store.stats().pending).toBeGreaterThan(64);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH + INNER));
    tree.dispose();
    expect(store.stats().nodes).toBe(0);
  });

  it('copies through a shared path, which never changes', () => {
    const store = new NodeStore();
    const { tree, model } = pagesTree(store);
    const before = hex(tree.root);
    const clone = tree.clone();
    const root = tree.rootNode;
    expect(writePages(tree, model, every(3), 70_000)).toBe(false);
    expect(tree.rootNode).not.toBe(root);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH + INNER));
    expect(hex(clone.root)).toBe(before);
    clone.dispose();
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('a branch held elsewhere halfway down the paths sends the batch to the walk, and the holder keeps its subtree', () => {
    // The root is owned and the nodes below the held branch have one link each: only the branch's own
    // count (read where its level is read, not where its parent is) says the paths are shared.
    for (const depth of [1, 4, DEPTH - 1]) {
      const store = new NodeStore();
      const { tree, model } = pagesTree(store);
      const held = new Tree(tree.getNodeAtDepth(depth, 0), store);
      const heldRoot = hex(held.root);
      const root = tree.rootNode;
      writePages(tree, model, every(4), 80_000);
      expect(tree.rootNode).toBe(root);
      expect(hex(tree.root)).toBe(modelRoot(model, DEPTH + INNER));
      expect(hex(held.root)).toBe(heldRoot);
      held.dispose();
      tree.dispose();
      store.collect();
      expect(store.stats().nodes).toBe(0);
    }
  });

  it('a path through a zero subtree (pages past a short list) goes through the walk', () => {
    const store = new NodeStore();
    const { tree, model } = pagesTree(store, 200);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH + INNER));
    writePages(tree, model, every(2), 80_000);
    expect(hex(tree.root)).toBe(modelRoot(model, DEPTH + INNER));
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('a position below a leaf fails as the walk fails', () => {
    const store = new NodeStore();
    const { tree, model } = pagesTree(store);
    tree.setNodesAtDepth(2, [3], [store.leaf(new Uint8Array(32).fill(9))]);
    tree.root;
    expect(codeOf(() => writePages(tree, model, every(2), 90_000))).toBe('NOT_BRANCH');
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it("an epoch-sized batch's path scratch (~131k entries) is kept for the batches after it, small ones included", () => {
    const store = new NodeStore();
    const { tree } = pagesTree(store);
    // 16384 positions 64 apart at depth 24: ~131k path entries reserved, as an epoch's 16384 validator pairs
    // reserve ~115k (reallocated at each epoch, and again at the next block, when only 2^16 were kept).
    const epoch = Array.from({ length: 16384 }, (_, k) => 64 * k);
    findOwnedPaths(store, tree.rootNode, 24, epoch, 0, true);
    const kept = pathNodes;
    expect(kept.length).toBeGreaterThan(1 << 17);
    findOwnedPaths(store, tree.rootNode, DEPTH, [1, 5, 9], 0, true);
    expect(pathNodes).toBe(kept);
    findOwnedPaths(store, tree.rootNode, 24, epoch, 0, true);
    expect(pathNodes).toBe(kept);
    tree.dispose();
  });

  it('property: large and small batches, clones and roots agree with the model', () => {
    fc.assert(
      fc.property(opSequences(PAGES, 300, 1 << 20, 14), (ops) => {
        const store = new NodeStore();
        const { tree, model } = pagesTree(store);
        runOps(store, tree, ops, (pages, seed) => writePages(tree, model, pages, seed * 4096), () => modelRoot(model, DEPTH + INNER));
      }),
      { numRuns: 60 },
    );
  });
});

const PAIR_BASE = registerRecordLayout(VALIDATOR_LAYOUT);
registerRecordPairs(PAIR_BASE);
const SIZE = VALIDATOR_LAYOUT.size;
const LEVEL = 10;

/** The root of `n` validator-shaped records as SSZ merkleizes them, padded to depth LEVEL. */
function recordsRoot(bytes: Uint8Array, n: number): string {
  const roots = new Uint8Array(32 * n);
  for (let i = 0; i < n; i++) roots.set(merkleize(expandRecord(VALIDATOR_LAYOUT, bytes, i * SIZE)), 32 * i);
  return hex(merkleize(roots, 2 ** LEVEL));
}

function pairTree(store: NodeStore, n: number): { tree: Tree; bytes: Uint8Array } {
  const bytes = new Uint8Array(SIZE * n).map((_, i) => (i * 31 + (i >>> 7)) & 0xff);
  const tree = new Tree(store.recordPairTreeFromBytes(PAIR_BASE, bytes, 0, n, LEVEL), store);
  store.collect();
  tree.root;
  return { tree, bytes };
}

/** Writes records filled with seed + k at the sorted unique `indices`, in place where owned; returns the in-place flag. */
function writeRecords(store: NodeStore, tree: Tree, bytes: Uint8Array, indices: readonly number[], seed: number): boolean {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const nodes = sorted.map((i, k) => {
    const record = new Uint8Array(SIZE).fill((seed + k) & 0xff);
    bytes.set(record, SIZE * i);
    return store.record(PAIR_BASE, record, 0);
  });
  return tree.setNodesAtDepth(LEVEL, sorted, nodes, OWN);
}

describe('fused in-place writes of records into pairs', () => {
  const N = 1000;
  const some = (step: number, from = 0) => Array.from({ length: N }, (_, i) => i).filter((i) => i % step === from);

  it('writes the halves, hashes the pairs and paths in one pass: same root id, nothing pending', () => {
    const store = new NodeStore();
    const { tree, bytes } = pairTree(store, N);
    const root = tree.rootNode;
    const pair = tree.recordAtDepth(LEVEL - 1, 7);
    expect(writeRecords(store, tree, bytes, some(7), 3)).toBe(true);
    expect(tree.rootNode).toBe(root);
    expect(tree.recordAtDepth(LEVEL - 1, 7)).toBe(pair);
    store.collect(); // the written records, held by nothing, go
    expect(store.stats().pending).toBe(0);
    expect(hex(tree.root)).toBe(recordsRoot(bytes, N));
    // The same bytes again: nothing changes, and the write says so.
    const again = some(7).map((i) => store.record(PAIR_BASE, bytes, SIZE * i));
    expect(tree.setNodesAtDepth(LEVEL, some(7), again, OWN)).toBe(false);
    expect(hex(tree.root)).toBe(recordsRoot(bytes, N));
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('hashes pending pairs beside the paths before their parents read them', () => {
    const store = new NodeStore();
    const { tree, bytes } = pairTree(store, N);
    // A small batch leaves pairs 1 and 250 and their paths pending ...
    writeRecords(store, tree, bytes, [2, 3, 500], 11);
    // ... and a large one writes pair 0 beside pair 1 (every 8th record: none of 2, 3, 500, 501).
    expect(writeRecords(store, tree, bytes, some(8), 12)).toBe(true);
    store.collect();
    expect(store.stats().pending).toBe(0);
    expect(hex(tree.root)).toBe(recordsRoot(bytes, N));
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('leaves small batches, shared pairs and an odd last record to the walk', () => {
    const store = new NodeStore();
    const { tree, bytes } = pairTree(store, N + 1);
    // Small: the walk lists the pairs and paths for the flush.
    expect(writeRecords(store, tree, bytes, some(40), 5)).toBe(true);
    store.collect();
    expect(store.stats().pending).toBeGreaterThan(0);
    expect(hex(tree.root)).toBe(recordsRoot(bytes, N + 1));
    // The odd last record sits under a branch, not in a pair.
    expect(writeRecords(store, tree, bytes, [...some(9), N], 6)).toBe(true);
    expect(hex(tree.root)).toBe(recordsRoot(bytes, N + 1));
    // A pair held elsewhere: copied, and the other holder keeps its bytes.
    const held = new Tree(tree.recordAtDepth(LEVEL - 1, 9), store);
    const heldRoot = hex(held.root);
    expect(writeRecords(store, tree, bytes, some(6), 7)).toBe(true);
    expect(hex(held.root)).toBe(heldRoot);
    expect(hex(tree.root)).toBe(recordsRoot(bytes, N + 1));
    held.dispose();
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('property: large and small batches, clones and roots agree with the model', () => {
    fc.assert(
      fc.property(opSequences(N, 200, 255, 10), (ops) => {
        const store = new NodeStore();
        const { tree, bytes } = pairTree(store, N);
        runOps(store, tree, ops, (indices, seed) => writeRecords(store, tree, bytes, indices, seed), () => recordsRoot(bytes, N));
      }),
      { numRuns: 25 },
    );
  });
});
