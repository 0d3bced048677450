/**
 * Reclamation: versions dropped explicitly or by garbage collection give their
 * unshared nodes back, surviving versions are untouched (checked leaf by leaf
 * and root by root), memory returns to its baseline when a program keeps
 * building and dropping versions, and floating nodes are only swept between
 * tasks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, Tree } from '../src/index.js';
import { collectUntil, fullGc } from './gc.js';
import { chunkOf, chunksOf, hex, modelRoot } from './helpers.js';

interface Version {
  tree: Tree;
  model: Uint8Array;
  root: string;
}

function writeVersion(store: NodeStore, from: Version, depth: number, seed: number, count: number): Version {
  const tree = from.tree.clone();
  const model = from.model.slice();
  const indices = new Set<number>();
  for (let k = 0; k < count; k++) indices.add((seed * 7919 + k * 104729) % 2 ** depth);
  const sorted = [...indices].sort((a, b) => a - b);
  tree.setNodesAtDepth(
    depth,
    sorted,
    sorted.map((i) => store.leaf(chunkOf((seed + i) % 65536))),
  );
  for (const i of sorted) model.set(chunkOf((seed + i) % 65536), 32 * i);
  return { tree, model, root: modelRoot(model, depth) };
}

function checkVersion(v: Version, depth: number): void {
  expect(hex(v.tree.root)).toBe(v.root);
  for (let i = 0; i < 2 ** depth; i++) expect(hex(v.tree.getChunk(2 ** depth + i))).toBe(hex(v.model.subarray(32 * i, 32 * i + 32)));
}

/**
 * Kept out of the async test bodies on purpose: a suspended async function
 * keeps its temporaries (a spliced-out tree, a loop variable) alive, which
 * would hide a dropped version from the collector.
 */
function forget(versions: Version[], which: number): void {
  versions.splice(which % versions.length, 1);
}

function checkAll(versions: Version[], depth: number): void {
  for (const v of versions) checkVersion(v, depth);
}

function disposeAll(versions: Version[]): void {
  for (const v of versions) v.tree.dispose();
  versions.length = 0;
}

type Op = { t: 'write'; from: number; seed: number; count: number } | { t: 'dispose'; which: number } | { t: 'forget'; which: number } | { t: 'gc' };

describe('reclamation', () => {
  it('random drops (explicit and by GC) never disturb surviving versions', async () => {
    const depth = 6;
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ t: fc.constant('write' as const), from: fc.nat(), seed: fc.integer({ min: 1, max: 50000 }), count: fc.integer({ min: 1, max: 20 }) }) },
      { weight: 2, arbitrary: fc.record({ t: fc.constant('dispose' as const), which: fc.nat() }) },
      { weight: 2, arbitrary: fc.record({ t: fc.constant('forget' as const), which: fc.nat() }) },
      { weight: 1, arbitrary: fc.constant({ t: 'gc' as const }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 30 }), async (ops) => {
        const store = new NodeStore();
        const seeds = Array.from({ length: 2 ** depth }, (_, i) => i + 1);
        const baseModel = chunksOf(seeds);
        const versions: Version[] = [{ tree: Tree.fromChunks(baseModel, depth, store), model: baseModel, root: modelRoot(baseModel, depth) }];
        for (const op of ops) {
          if (op.t === 'write' && versions.length > 0) {
            versions.push(writeVersion(store, versions[op.from % versions.length]!, depth, op.seed, op.count));
          } else if (op.t === 'dispose' && versions.length > 1) {
            versions.splice(op.which % versions.length, 1)[0]!.tree.dispose();
          } else if (op.t === 'forget' && versions.length > 1) {
            forget(versions, op.which); // left to the FinalizationRegistry
          } else if (op.t === 'gc') {
            await fullGc();
            store.collect();
            checkAll(versions, depth);
          }
        }
        checkAll(versions, depth);
        disposeAll(versions);
        const empty = await collectUntil(() => {
          store.collect();
          return store.stats().nodes === 0;
        });
        expect(empty).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('memory returns to its baseline when versions are built and dropped', async () => {
    const store = new NodeStore();
    const depth = 16;
    const base: Version = (() => {
      const model = chunksOf(Array.from({ length: 2 ** depth }, (_, i) => i + 1));
      return { tree: Tree.fromChunks(model, depth, store), model, root: modelRoot(model, depth) };
    })();
    const baseNodes = store.stats().nodes;
    const cycle = (round: number): void => {
      let prev = base;
      for (let v = 0; v < 10; v++) {
        const next = writeVersion(store, prev, depth, round * 100 + v + 1, 256);
        next.tree.root;
        if (v % 2 === 0 && prev !== base) prev.tree.dispose(); // every other version is left to GC
        prev = next;
      }
    };
    const settle = async (): Promise<void> => {
      const ok = await collectUntil(() => {
        store.collect();
        return store.stats().nodes === baseNodes;
      });
      expect(ok).toBe(true);
    };
    for (let r = 0; r < 3; r++) {
      cycle(r);
      await collectUntil(() => true, 1);
    }
    await settle();
    await fullGc();
    const baseline = { store: store.stats().bytes, buffers: process.memoryUsage().arrayBuffers };
    // A program yields between blocks; collection happens then (forced here).
    for (let r = 3; r < 40; r++) {
      cycle(r);
      await collectUntil(() => true, 1);
    }
    await settle();
    await fullGc();
    const after = { store: store.stats().bytes, buffers: process.memoryUsage().arrayBuffers };
    // 37 rounds × 10 versions × ~2,300 new nodes would be ~40 MB if nothing were reused.
    expect(store.stats().nodes).toBe(baseNodes);
    expect(after.store).toBeLessThanOrEqual(baseline.store + (1 << 20));
    expect(after.buffers).toBeLessThanOrEqual(baseline.buffers + (4 << 20));
    expect(hex(base.tree.root)).toBe(base.root);
  });

  it('frees long chains iteratively', () => {
    const store = new NodeStore();
    let node = store.leaf(chunkOf(1));
    for (let i = 0; i < 100_000; i++) node = store.branch(node, store.zero(i % 60));
    const tree = new Tree(node, store);
    expect(tree.root.length).toBe(32);
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('sweeps floating nodes only between tasks', async () => {
    const store = new NodeStore();
    const leaf = store.leaf(chunkOf(5));
    const kept = store.leaf(chunkOf(6));
    const tree = new Tree(store.branch(kept, store.zero(0)), store);
    // Still usable for the rest of this task.
    expect(store.kind(leaf)).toBe('leaf');
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.kind(leaf)).toBe('leaf'); // below the sweep threshold: no sweep scheduled
    store.collect();
    expect(() => store.kind(leaf)).toThrow(CoreError);
    expect(store.kind(kept)).toBe('leaf');
    // Past the threshold a sweep is scheduled as a macrotask.
    const many = Array.from({ length: 20_000 }, (_, i) => store.leaf(chunkOf(i + 1)));
    expect(store.stats().floating).toBe(20_000);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.stats().floating).toBe(0);
    expect(() => store.kind(many[0]!)).toThrow(CoreError);
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('reuses freed slots instead of growing', () => {
    const store = new NodeStore();
    const tree = Tree.fromChunks(chunksOf(Array.from({ length: 1024 }, (_, i) => i)), 10, store);
    const top = store.branches.top;
    for (let r = 0; r < 200; r++) {
      tree.setChunk(1024 + ((r * 37) % 1024), chunkOf(r + 5000));
      tree.root;
    }
    // Each write frees the old path, which the next write reuses.
    expect(store.branches.top).toBeLessThanOrEqual(top + 20);
  });

  it('bulk builds reuse whole free pages, mixed with single-node reuse', () => {
    const store = new NodeStore();
    const depth = 16;
    let x = 7;
    const rand = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    const chunksFor = (round: number): Uint8Array => {
      const c = new Uint8Array(32 << depth);
      for (let i = 0; i < c.length; i += 32) c.set(chunkOf(((i >>> 5) + round * 977) % 65535 + 1), i);
      return c;
    };
    let pagesAfterFirst = 0;
    let kept: { tree: Tree; model: Uint8Array } | undefined;
    for (let round = 0; round < 8; round++) {
      const model = chunksFor(round);
      const tree = Tree.fromChunks(model, depth, store);
      // Single writes in between take slots one by one from the free stack.
      for (let k = 0; k < 300; k++) {
        const i = rand() % 2 ** depth;
        const c = chunkOf((rand() % 60000) + 1);
        tree.setChunk(2 ** depth + i, c);
        model.set(c, 32 * i);
      }
      expect(hex(tree.root)).toBe(modelRoot(model, depth));
      if (kept !== undefined) {
        expect(hex(kept.tree.root)).toBe(modelRoot(kept.model, depth));
        kept.tree.dispose();
      }
      kept = { tree, model };
      store.collect();
      if (round === 1) pagesAfterFirst = store.branches.h8.length + store.leaves.h8.length;
    }
    // Two trees alive at most: the pools stop growing after the second round.
    expect(store.branches.h8.length + store.leaves.h8.length).toBeLessThanOrEqual(pagesAfterFirst + 2);
    for (let i = 0; i < 2 ** depth; i += 997) expect(hex(kept!.tree.getChunk(2 ** depth + i))).toBe(hex(kept!.model.subarray(32 * i, 32 * i + 32)));
  });
});
