/**
 * `wideRows`: many wide leaves from one buffer equal the same leaves made one
 * by one (hashes, chunks), float until held, and bad arguments are CoreErrors.
 */
import { merkleize } from '@ssztree/hasher';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore } from '../src/index.js';

function rows(count: number, depth: number, seed: number, offset = 0): Uint8Array {
  const out = new Uint8Array(offset + count * (32 << depth));
  for (let i = offset; i < out.length; i++) out[i] = (i * 131 + seed) & 255;
  return out.subarray(offset);
}

describe('wideRows', () => {
  for (const depth of [1, 3, 6]) {
    it(`depth ${depth}: same chunks and roots as one wide() per row`, () => {
      const store = new NodeStore();
      const data = rows(300, depth, depth);
      const ids = new Array<number>(305).fill(-1);
      store.wideRows(data, depth, 300, ids, 5);
      expect(ids.slice(0, 5)).toEqual([-1, -1, -1, -1, -1]);
      const size = 32 << depth;
      for (let i = 0; i < 300; i += 37) {
        const row = data.subarray(i * size, (i + 1) * size);
        const id = ids[5 + i] as number;
        expect(store.wideChunks(id)).toEqual(row);
        expect(store.hash(id)).toEqual(merkleize(row));
        expect(store.hash(id)).toEqual(store.hash(store.wide(row)));
      }
      // Floating until held: a sweep frees them all.
      store.collect();
      expect(() => store.hash(ids[5] as number)).toThrow(CoreError);
    });
  }

  it('unaligned rows give the same result', () => {
    const store = new NodeStore();
    const data = rows(10, 3, 9, 1);
    expect(data.byteOffset & 3).toBe(1);
    const ids: number[] = [];
    store.wideRows(data, 3, 10, ids);
    for (let i = 0; i < 10; i++) expect(store.hash(ids[i] as number)).toEqual(merkleize(data.subarray(256 * i, 256 * (i + 1))));
  });

  it('rejects a bad depth, count or a buffer too short', () => {
    const store = new NodeStore();
    const out: number[] = [];
    expect(() => store.wideRows(new Uint8Array(256), 0, 1, out)).toThrow(CoreError);
    expect(() => store.wideRows(new Uint8Array(256), 7, 1, out)).toThrow(CoreError);
    expect(() => store.wideRows(new Uint8Array(256), 3, 2, out)).toThrow(CoreError);
    expect(() => store.wideRows(new Uint8Array(256), 3, -1, out)).toThrow(CoreError);
    expect(() => store.wideRows(new Uint8Array(256), 3, 1.5, out)).toThrow(CoreError);
    expect(() => store.wideRows([] as unknown as Uint8Array, 3, 0, out)).toThrow(CoreError);
    expect(out).toEqual([]);
  });
});
