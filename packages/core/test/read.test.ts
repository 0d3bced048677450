/**
 * Serializer reads (`copyLevelBytes`, `collectLevel`, `copyWideInto`): for
 * random chunk trees built from plain leaves, from wide-leaf pages and with
 * zero padding, the bytes copied equal the chunks, padding is detected in
 * the last chunk only, the level ids equal `getNodesAtDepth`'s, and trees of
 * the wrong shape throw `CoreError`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore } from '../src/index.js';

function pages(store: NodeStore, chunks: Uint8Array, depth: number, pageDepth: number): number {
  const pageBytes = 32 << pageDepth;
  const ids: number[] = [];
  for (let p = 0; p * pageBytes < chunks.length; p++) {
    const page = new Uint8Array(pageBytes);
    page.set(chunks.subarray(p * pageBytes, (p + 1) * pageBytes));
    ids.push(store.wide(page));
  }
  return ids.length === 0 ? store.zero(depth) : store.setNodesAtDepth(store.zero(depth), depth - pageDepth, ids.map((_, i) => i), ids);
}

describe('copyLevelBytes', () => {
  it('copies the chunks of leaf trees and of wide-leaf pages, zero subtrees as zeros', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 40 }), fc.uint8Array({ minLength: 0, maxLength: 2000 }), fc.nat(), (depth, raw, cut) => {
        const store = new NodeStore();
        const chunks = new Uint8Array(Math.ceil(raw.length / 32) * 32);
        chunks.set(raw);
        const byteLen = chunks.length === 0 ? 0 : chunks.length - (cut % 32);
        for (const root of [store.fromChunks(chunks, depth), pages(store, chunks, depth, 3)]) {
          // The output a window into a larger buffer (byteOffset 3): wide pages are copied natively into it.
          const outer = new Uint8Array(byteLen + 12).fill(0xee);
          const out = outer.subarray(3, byteLen + 8);
          const clean = store.copyLevelBytes(root, depth, byteLen, out, 5);
          expect(out.subarray(5)).toEqual(chunks.subarray(0, byteLen));
          expect([...outer.subarray(0, 3), ...outer.subarray(byteLen + 8)]).toEqual(new Array(7).fill(0xee));
          expect(clean).toBe(chunks.subarray(byteLen).every((b) => b === 0));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('rejects a leaf where a branch belongs, and wide leaves at another level', () => {
    const store = new NodeStore();
    const leaf = store.leaf(new Uint8Array(32).fill(1));
    expect(() => store.copyLevelBytes(store.branch(leaf, leaf), 3, 64, new Uint8Array(64), 0)).toThrow(CoreError);
    const wide = store.wide(new Uint8Array(64).fill(2));
    expect(() => store.copyLevelBytes(store.branch(wide, wide), 3, 64, new Uint8Array(64), 0)).toThrow(CoreError);
    expect(() => store.copyLevelBytes(leaf, 0, 33, new Uint8Array(64), 0)).toThrow(CoreError);
  });
});

describe('collectLevel', () => {
  it('equals getNodesAtDepth (zero padding included), null where wide leaves cover the level', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 70 }), fc.nat(), (depth, n, extra) => {
        const store = new NodeStore();
        const ids = Array.from({ length: Math.min(n, 2 ** depth) }, (_, i) => store.leaf(new Uint8Array(32).fill(i + 1)));
        const root = store.setNodesAtDepth(store.zero(depth), depth, ids.map((_, i) => i), ids);
        const count = Math.min(2 ** depth, ids.length + (extra % 5));
        expect(store.collectLevel(root, depth, count)).toEqual(store.getNodesAtDepth(root, depth, 0, count));
      }),
      { numRuns: 100 },
    );
    const store = new NodeStore();
    const wide = store.wide(new Uint8Array(128));
    expect(store.collectLevel(store.branch(wide, wide), 2, 4)).toBe(null);
    expect(store.collectLevel(store.branch(wide, wide), 1, 2)).toEqual([wide, wide]);
  });
});

describe('copyWideInto', () => {
  it('copies a wide leaf, rejects other nodes and short buffers', () => {
    const store = new NodeStore();
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const wide = store.wide(bytes);
    const out = new Uint8Array(260);
    store.copyWideInto(wide, new DataView(out.buffer), 4);
    expect(out.subarray(4)).toEqual(bytes);
    expect(() => store.copyWideInto(store.leaf(new Uint8Array(32)), new DataView(out.buffer), 0)).toThrow(CoreError);
    expect(() => store.copyWideInto(wide, new DataView(out.buffer), 5)).toThrow(CoreError);
  });
});
