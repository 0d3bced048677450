/**
 * The synchronous safe point in `Tree.dispose()`: a program that builds and
 * disposes versions in a loop without ever yielding to the event loop (a
 * CLI, a script, a test) keeps its store bounded, because a dispose sweeps
 * the nursery once it is large; floating ids made before such a dispose are
 * invalid after it, held ones never are, and `holdSweeps` defers it.
 */
import { merkleize } from '@ssztree/hasher';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, Tree } from '../src/index.js';
import { chunkOf, hex, modelRoot } from './helpers.js';

/** The nursery size at which a dispose sweeps (store/storeBase.ts NURSERY_SWEEP_THRESHOLD). */
const THRESHOLD = 1 << 14;

/** `count` rows of 8 chunks (256 bytes) whose contents depend on `round`. */
function rowsFor(round: number, count: number): Uint8Array {
  const rows = new Uint8Array(256 * count);
  const words = new Uint32Array(rows.buffer);
  let x = (round + 1) * 2654435761;
  for (let i = 0; i < words.length; i++) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    words[i] = x;
  }
  return rows;
}

describe('dispose is a synchronous safe point', () => {
  it('a synchronous build → root → dispose loop keeps the store bounded', () => {
    const store = new NodeStore();
    const count = 20_000; // > THRESHOLD floating wide leaves per round
    const depth = 15;
    const indices = Array.from({ length: count }, (_, i) => i);
    const ids: number[] = [];
    const seen: { nodes: number; bytes: number; wideTop: number }[] = [];
    for (let round = 0; round < 20; round++) {
      const rows = rowsFor(round, count);
      store.wideRows(rows, 3, count, ids);
      expect(store.stats().floating).toBeGreaterThanOrEqual(count);
      const tree = Tree.zero(depth, store);
      tree.setNodesAtDepth(depth, indices, ids);
      if (round === 0 || round === 19) {
        // Unwritten positions of Tree.zero are zero chunks: the model is the level of page roots.
        const pageRoots = new Uint8Array(32 * count);
        for (let i = 0; i < count; i++) pageRoots.set(merkleize(rows.subarray(256 * i, 256 * i + 256)), 32 * i);
        expect(hex(tree.root)).toBe(hex(merkleize(pageRoots, 2 ** depth)));
      }
      else tree.root;
      tree.dispose();
      const s = store.stats();
      expect(s.floating).toBe(0);
      expect(s.nodes).toBe(0);
      seen.push({ nodes: s.nodes, bytes: s.bytes, wideTop: store.pools[4 + 2]!.top });
    }
    // Round 2 and round 20 hold exactly the same storage: every round reused the slots the previous one freed.
    expect(seen[19]).toEqual(seen[1]);
  });

  it('fromChunks trees made and disposed in a loop reuse their pages', () => {
    const store = new NodeStore();
    const depth = 14;
    const tops: number[] = [];
    for (let round = 0; round < 20; round++) {
      const chunks = rowsFor(round, 1 << (depth - 3));
      // Floating leaves made alongside, never attached: the sweep at dispose frees them.
      for (let i = 0; i < THRESHOLD; i++) store.leaf(chunks, 32 * i);
      const tree = Tree.fromChunks(chunks, depth, store);
      expect(hex(tree.root)).toBe(modelRoot(chunks, depth));
      tree.dispose();
      expect(store.stats().nodes).toBe(0);
      tops.push(store.leaves.top + store.branches.top);
    }
    // Run placement settles after the first rounds (measured: 49151, 61376, then 65408 every round).
    expect(tops[19]).toBe(tops[2]);
  });

  it('floating ids die at the next dispose, however small the nursery; held and retained ids never do', () => {
    const store = new NodeStore();
    const held = new Tree(store.branch(store.leaf(chunkOf(1)), store.leaf(chunkOf(2))), store);
    const heldRoot = hex(held.root);
    const floating = store.leaf(chunkOf(3));
    const retained = store.leaf(chunkOf(4));
    store.retain(retained);
    const got = held.getNode(2); // held by `held`: never freed by a sweep
    expect(store.stats().floating).toBeGreaterThan(0);
    Tree.zero(4, store).dispose(); // a handful of floats: swept here all the same
    expect(store.stats().floating).toBe(0);
    expect(() => store.kind(floating)).toThrow(CoreError);
    expect(store.kind(retained)).toBe('leaf');
    expect(hex(store.chunk(got))).toBe(hex(chunkOf(1)));
    expect(hex(held.root)).toBe(heldRoot);
    // A large nursery goes the same way.
    for (let i = 0; i < THRESHOLD; i++) store.leaf(chunkOf(i + 10));
    new Tree(store.leaf(chunkOf(5)), store).dispose();
    expect(store.stats().floating).toBe(0);
    store.release(retained);
    held.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('holdSweeps defers the dispose-time sweep until resumed (nestable)', () => {
    const store = new NodeStore();
    for (let i = 0; i < THRESHOLD; i++) store.leaf(chunkOf(i + 1));
    const keep = store.leaf(chunkOf(99_999));
    store.holdSweeps();
    store.holdSweeps();
    Tree.zero(3, store).dispose();
    store.resumeSweeps();
    Tree.zero(3, store).dispose();
    expect(store.kind(keep)).toBe('leaf');
    expect(store.stats().floating).toBe(THRESHOLD + 1);
    store.resumeSweeps();
    Tree.zero(3, store).dispose();
    expect(store.stats().floating).toBe(0);
    expect(() => store.kind(keep)).toThrow(CoreError);
  });

  it('property: dispose-time sweeps never change a surviving version', () => {
    type Op = { t: 'write'; from: number; seed: number; count: number } | { t: 'dispose'; which: number } | { t: 'flood' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ t: fc.constant('write' as const), from: fc.nat(), seed: fc.nat(60_000), count: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ t: fc.constant('dispose' as const), which: fc.nat() }),
      fc.record({ t: fc.constant('flood' as const) }),
    );
    const depth = 8;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
        const store = new NodeStore();
        const versions = [{ tree: Tree.zero(depth, store), model: new Uint8Array(32 << depth) }];
        const check = (): void => {
          for (const v of versions) expect(hex(v.tree.root)).toBe(modelRoot(v.model, depth));
        };
        for (const o of ops) {
          if (o.t === 'write' && versions.length > 0) {
            const from = versions[o.from % versions.length]!;
            const tree = from.tree.clone();
            const model = from.model.slice();
            const picked = [...new Set(Array.from({ length: o.count }, (_, k) => (o.seed + k * 97) % 2 ** depth))].sort((a, b) => a - b);
            // Floating leaves, attached by the write in the same synchronous step.
            tree.setNodesAtDepth(depth, picked, picked.map((i) => store.leaf(chunkOf((o.seed + i) % 65_536))));
            for (const i of picked) model.set(chunkOf((o.seed + i) % 65_536), 32 * i);
            versions.push({ tree, model });
          } else if (o.t === 'dispose' && versions.length > 0) {
            versions.splice(o.which % versions.length, 1)[0]!.tree.dispose();
          } else if (o.t === 'flood') {
            // Unattached nodes past the threshold: the next dispose sweeps.
            for (let i = 0; i < THRESHOLD; i++) store.leaf(chunkOf((i % 60_000) + 1));
          }
          check();
        }
        for (const v of versions) v.tree.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 25 },
    );
  });
});
