/**
 * `fromPages`: a subtree whose first pages are new wide leaves, built and
 * hashed in runs, has the root of merkleizing its bytes, reads back page by
 * page, shares nothing with older trees, and gives every slot back.
 */
import { merkleize } from '@ssztree/hasher';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, Tree } from '../src/index.js';
import { hex } from './helpers.js';

function bytes(n: number, seed: number, offset = 0): Uint8Array {
  const out = new Uint8Array(offset + n);
  for (let i = offset; i < out.length; i++) out[i] = (i * 131 + seed * 7 + (i >>> 9)) & 255;
  return out.subarray(offset);
}

/** The expected root: `data` zero-padded to 2^(depth + innerDepth) chunks. */
function expectedRoot(data: Uint8Array, innerDepth: number, depth: number): string {
  return hex(merkleize(data, 2 ** (depth + innerDepth)));
}

describe('fromPages', () => {
  for (const innerDepth of [1, 3, 6]) {
    for (const count of [1, 2, 3, 7, 64, 1000, 1030, 4100]) {
      it(`inner depth ${innerDepth}, ${count} contiguous pages: root, page ids, page reads`, () => {
        const store = new NodeStore();
        const pageBytes = 32 << innerDepth;
        const depth = Math.ceil(Math.log2(count)) + 2;
        const data = bytes(count * pageBytes, count);
        const ids = new Int32Array(count);
        const root = store.fromPages({ data }, count, innerDepth, depth, ids);
        expect(store.stats().pending).toBe(0);
        expect(hex(store.hash(root))).toBe(expectedRoot(data, innerDepth, depth));
        for (let i = 0; i < count; i += Math.max(1, count >>> 4)) {
          const page = data.subarray(i * pageBytes, (i + 1) * pageBytes);
          expect(store.getNodeAtDepth(root, depth, i)).toBe(ids[i]);
          expect(store.wideChunks(ids[i]!)).toEqual(page);
          expect(store.hash(ids[i]!)).toEqual(merkleize(page));
        }
      });
    }
  }

  for (const innerDepth of [1, 3]) {
    it(`inner depth ${innerDepth}: all-zero pages among others (not hashed: their root is known) give the merkle root and each page's own root`, () => {
      // Long stretches of zero pages (not hashed), lone zero pages (hashed with their neighbours), pages zero
      // but for their last byte or a byte of their first word, alone and inside a long zero stretch, and a
      // build all zero (a new participation list), over more than one pool page of wide leaves.
      const count = 2600;
      const pageBytes = 32 << innerDepth;
      for (const zeroAll of [false, true]) {
        const data = zeroAll ? new Uint8Array(count * pageBytes) : bytes(count * pageBytes, 5);
        if (!zeroAll) {
          for (let p = 0; p < count; p++) if (p % 7 === 0 || p % 11 === 3 || (p >= 900 && p < 1400)) data.fill(0, p * pageBytes, (p + 1) * pageBytes);
          data.fill(0, 12 * pageBytes, 13 * pageBytes - 1);
          data[13 * pageBytes - 1] = 9; // page 12: zero but for its last byte
          data[14 * pageBytes] = 1; // page 13: zero but for its first byte
          data.fill(0, 14 * pageBytes + 1, 15 * pageBytes);
          data[1001 * pageBytes - 1] = 4; // page 1000, inside a long zero stretch: zero but for its last byte
          data[1200 * pageBytes + 1] = 6; // page 1200: zero but for a byte of its first word
        }
        const store = new NodeStore();
        const depth = 13;
        const ids = new Int32Array(count);
        const root = store.fromPages({ data }, count, innerDepth, depth, ids);
        expect(hex(store.hash(root))).toBe(expectedRoot(data, innerDepth, depth));
        for (let i = 0; i < count; i++) {
          const page = data.subarray(i * pageBytes, (i + 1) * pageBytes);
          if (hex(store.hash(ids[i]!)) !== hex(merkleize(page))) expect(hex(store.hash(ids[i]!))).toBe(hex(merkleize(page)));
        }
      }
    });
  }

  it('a partial last page reads as zero-padded', () => {
    const store = new NodeStore();
    const data = bytes(5 * 256 + 64, 3);
    const root = store.fromPages({ data }, 6, 3, 4);
    expect(hex(store.hash(root))).toBe(expectedRoot(data, 3, 4));
    const last = new Uint8Array(256);
    last.set(data.subarray(5 * 256));
    expect(store.wideChunks(store.getNodeAtDepth(root, 4, 5))).toEqual(last);
  });

  it('pages at offsets (shuffled, aligned or not) equal the contiguous build', () => {
    const count = 300;
    const contiguous = bytes(count * 256, 11);
    const order = Array.from({ length: count }, (_, i) => (i * 97) % count);
    for (const shift of [0, 1]) {
      const store = new NodeStore();
      const slab = new Uint8Array(shift + count * 256).subarray(shift);
      const offsets = new Array<number>(count);
      order.forEach((page, k) => {
        slab.set(contiguous.subarray(page * 256, (page + 1) * 256), k * 256);
        offsets[page] = k * 256;
      });
      const root = store.fromPages({ data: slab, offsets }, count, 3, 9);
      expect(hex(store.hash(root))).toBe(expectedRoot(contiguous, 3, 9));
    }
  });

  it('empty: the zero subtree', () => {
    const store = new NodeStore();
    expect(store.fromPages({ data: new Uint8Array(0) }, 0, 3, 5)).toBe(store.zero(8));
  });

  it('reuses freed slots (fragmented pools) and leaves older trees unchanged', () => {
    const store = new NodeStore();
    const baseline = store.stats();
    const first = new Tree(store.fromPages({ data: bytes(2000 * 256, 1) }, 2000, 3, 11), store);
    const firstRoot = hex(first.root);
    // Fragment the pools: a tree of single wide leaves and branches, half of them dropped.
    const scattered = new Tree(store.zero(15), store);
    const indices = Array.from({ length: 900 }, (_, i) => 3 * i);
    scattered.setWidesAtDepth(12, indices, 3, bytes(900 * 256, 2), indices.map((_, k) => 256 * k));
    void scattered.root;
    const half = new Tree(store.zero(15), store);
    half.setNodesAtDepth(12, indices.slice(0, 450), scattered.getNodesAtDepth(12, 0, 1350).filter((_, i) => i % 3 === 0));
    scattered.dispose();
    for (let round = 0; round < 4; round++) {
      const data = bytes(1500 * 256, 20 + round);
      const next = new Tree(store.fromPages({ data }, 1500, 3, 11), store);
      expect(hex(next.root)).toBe(expectedRoot(data, 3, 11));
      expect(hex(first.root)).toBe(firstRoot);
      next.dispose();
    }
    half.dispose();
    first.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(baseline.nodes);
    expect(store.stats().pending).toBe(0);
  });

  it('as the contents of a list, swapped in for older contents: roots and refcounts', () => {
    const store = new NodeStore();
    const baseline = store.stats().nodes;
    const old = new Tree(store.withLength(store.fromPages({ data: bytes(100 * 256, 4) }, 100, 3, 10), 800), store);
    const oldRoot = hex(old.root);
    const next = old.clone();
    const data = bytes(130 * 256, 5);
    next.rootNode = store.withLength(store.fromPages({ data }, 130, 3, 10), 1040);
    const contents = merkleize(data, 2 ** 13);
    const len = new Uint8Array(32);
    len[0] = 1040 & 255;
    len[1] = 1040 >>> 8;
    expect(next.root).toEqual(merkleize(new Uint8Array([...contents, ...len])));
    expect(hex(old.root)).toBe(oldRoot);
    old.dispose();
    next.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(baseline);
  });

  it('property: any page count, depth and inner depth merkleizes like the bytes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 255 }), (innerDepth, count, extra, seed) => {
        const store = new NodeStore();
        const depth = (count <= 1 ? 0 : Math.ceil(Math.log2(count))) + extra;
        const pageBytes = 32 << innerDepth;
        const trim = count > 0 ? 32 * (seed % (1 << innerDepth)) : 0;
        const data = bytes(count * pageBytes - trim, seed);
        const root = new Tree(store.fromPages({ data }, count, innerDepth, depth), store);
        expect(hex(root.root)).toBe(expectedRoot(data, innerDepth, depth));
        root.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('rejects bad arguments with CoreError', () => {
    const store = new NodeStore();
    const data = new Uint8Array(512);
    expect(() => store.fromPages({ data }, 2, 0, 3)).toThrow(CoreError);
    expect(() => store.fromPages({ data }, 2, 7, 3)).toThrow(CoreError);
    expect(() => store.fromPages({ data }, 3, 3, 1)).toThrow(CoreError);
    expect(() => store.fromPages({ data }, 1, 3, 3)).toThrow(CoreError);
    expect(() => store.fromPages({ data }, -1, 3, 3)).toThrow(CoreError);
    expect(() => store.fromPages({ data }, 1.5, 3, 3)).toThrow(CoreError);
    expect(() => store.fromPages({ data, offsets: [0] }, 2, 3, 3)).toThrow(CoreError);
    expect(() => store.fromPages({ data, offsets: [0, 300] }, 2, 3, 3)).toThrow(CoreError);
    expect(() => store.fromPages({ data, offsets: [0, 0.5] }, 2, 3, 3)).toThrow(CoreError);
    expect(() => store.fromPages({ data: [] as unknown as Uint8Array }, 0, 3, 3)).toThrow(CoreError);
    expect(() => store.fromPages(null as unknown as { data: Uint8Array }, 0, 3, 3)).toThrow(CoreError);
    expect(() => store.fromPages({ data }, 2, 3, 3, new Int32Array(1))).toThrow(CoreError);
    expect(store.stats().nodes).toBe(0);
  });
});
