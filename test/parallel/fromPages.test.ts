/**
 * Core `fromPages` on its whole-level route (large contiguous builds with the
 * hasher's worker pool on): the same roots, page ids and page bytes as with
 * the pool off and as merkleizing the bytes — also with a partial last page,
 * pages at contiguous offsets inside a larger slab, and a worker that dies
 * mid-build — older trees unchanged, every slot given back.
 */
import { configureThreads, merkleize, poolStats } from '@ssztree/hasher';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeStore, Tree } from '@ssztree/core';
// The fault-injection hook is not public API: reached in the hasher's sources, as test/browser does.
import { crashWorkerOnNextJob } from '../../packages/hasher/src/parallel/pool.js';

afterAll(() => configureThreads(0));

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 131 + seed * 7 + (i >>> 9)) & 255;
  return out;
}

/** Builds the pages of `data` (from `start`, `count` back to back; offsets given when `withOffsets`), returns root hex and ids. */
function build(store: NodeStore, data: Uint8Array, start: number, count: number, withOffsets: boolean, depth: number): { tree: Tree; ids: Int32Array } {
  const ids = new Int32Array(count);
  const offsets = withOffsets ? Array.from({ length: count }, (_, i) => start + 256 * i) : undefined;
  const root = store.fromPages({ data, offsets }, count, 3, depth, ids);
  return { tree: new Tree(root, store), ids };
}

function expected(pages: Uint8Array, depth: number): string {
  return hex(merkleize(pages, 2 ** (depth + 3)));
}

describe('fromPages, whole levels with the worker pool', () => {
  it('agrees with the pool off and with merkleize: contiguous, partial last page, offsets in a slab', () => {
    for (const threads of [0, 1, 0]) {
      configureThreads(threads);
      const store = new NodeStore();
      const count = 4096 + 77;
      const depth = 14;
      // No offsets, the last page 96 bytes short.
      const data = bytes(count * 256 - 96, 1);
      const a = build(store, data, 0, count, false, depth);
      expect(hex(a.tree.root)).toBe(expected(data, depth));
      const last = new Uint8Array(256);
      last.set(data.subarray((count - 1) * 256));
      expect(store.wideChunks(a.ids[count - 1]!)).toEqual(last);
      expect(store.stats().pending).toBe(0);
      // Offsets back to back from an unaligned start inside a larger slab.
      const slab = bytes(5 + count * 256 + 300, 2);
      const b = build(store, slab, 5, count, true, depth);
      const pages = slab.subarray(5, 5 + count * 256);
      expect(hex(b.tree.root)).toBe(expected(pages, depth));
      for (let i = 0; i < count; i += 509) expect(store.wideChunks(b.ids[i]!)).toEqual(pages.subarray(256 * i, 256 * i + 256));
      expect(hex(a.tree.root)).toBe(expected(data, depth));
      a.tree.dispose();
      b.tree.dispose();
      store.collect();
      expect(store.stats().nodes).toBe(0);
    }
  });

  it('pages past the end of the data are zero pages, pool off and on', () => {
    for (const threads of [0, 1]) {
      configureThreads(threads);
      const store = new NodeStore();
      const count = 4096 + 77;
      const data = bytes(100 * 256 + 64, 4); // 100 pages, a partial one, then 3972 zero pages
      const { tree, ids } = build(store, data, 0, count, false, 13);
      expect(hex(tree.root)).toBe(expected(data, 13));
      const partial = new Uint8Array(256);
      partial.set(data.subarray(100 * 256));
      expect(store.wideChunks(ids[100]!)).toEqual(partial);
      expect(store.wideChunks(ids[count - 1]!)).toEqual(new Uint8Array(256));
      expect(hex(store.hash(ids[count - 1]!))).toBe(hex(merkleize(new Uint8Array(256))));
      tree.dispose();
      store.collect();
      expect(store.stats().nodes).toBe(0);
    }
  });

  it('shares the page folds with a worker, and survives one dying mid-build', () => {
    configureThreads(1);
    const store = new NodeStore();
    const count = 1 << 13;
    const data = bytes(count * 256, 3);
    const root = expected(data, 13);
    const first = build(store, data, 0, count, false, 13); // workers start
    expect(hex(first.tree.root)).toBe(root);
    const jobs = poolStats().jobsDone;
    const second = build(store, data, 0, count, false, 13);
    expect(poolStats().jobsDone).toBeGreaterThan(jobs);
    expect(hex(second.tree.root)).toBe(root);
    const recovered = poolStats().jobsRecovered;
    expect(crashWorkerOnNextJob(0)).toBe(true);
    const third = build(store, data, 0, count, false, 13);
    expect(poolStats().jobsRecovered).toBeGreaterThan(recovered);
    expect(hex(third.tree.root)).toBe(root);
    expect(hex(first.tree.root)).toBe(root);
    for (const t of [first, second, third]) t.tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('property: any large page count, start and tail, pool on, merkleizes like the bytes and leaves older trees alone', () => {
    configureThreads(1);
    const store = new NodeStore();
    const kept: { tree: Tree; root: string }[] = [];
    fc.assert(
      fc.property(fc.integer({ min: 2048, max: 6000 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 7 }), fc.boolean(), (count, start, short, withOffsets) => {
        const depth = Math.ceil(Math.log2(count)) + (count & 1);
        const slab = bytes(start + count * 256 - (withOffsets ? 0 : 32 * short), count);
        const data = withOffsets ? slab : slab.subarray(start);
        const { tree } = build(store, data, withOffsets ? start : 0, count, withOffsets, depth);
        const pages = withOffsets ? slab.subarray(start, start + count * 256) : data;
        const root = expected(pages, depth);
        expect(hex(tree.root)).toBe(root);
        kept.push({ tree, root });
        for (const k of kept) expect(hex(k.tree.root)).toBe(k.root);
        if (kept.length > 3) kept.shift()!.tree.dispose();
      }),
      { numRuns: 12 },
    );
    for (const k of kept) k.tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});
