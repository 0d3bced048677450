/**
 * `forEachLiveChunk`: visits exactly the live nodes' chunks (floating ones
 * included, freed ones not), and rejects positions a node cannot have.
 */
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, Tree } from '../src/index.js';

function chunkOf(byte: number): Uint8Array {
  return new Uint8Array(32).fill(byte);
}

function seen(store: NodeStore, depth: number, index: number): number[] {
  const out: number[] = [];
  store.forEachLiveChunk(depth, index, (bytes, offset) => out.push(bytes[offset] as number));
  return out.sort((a, b) => a - b);
}

describe('forEachLiveChunk', () => {
  it('visits live leaves and one chunk of every live wide leaf, not freed ones', () => {
    const store = new NodeStore();
    const kept = new Tree(store.branch(store.leaf(chunkOf(1)), store.leaf(chunkOf(2))), store);
    const wideChunks = new Uint8Array(256);
    for (let i = 0; i < 8; i++) wideChunks.fill(10 + i, 32 * i, 32 * i + 32);
    const wide = new Tree(store.wide(wideChunks), store);
    store.leaf(chunkOf(3)); // floating: live until the next sweep
    expect(seen(store, 0, 0)).toEqual([1, 2, 3]);
    expect(seen(store, 3, 0)).toEqual([10]);
    expect(seen(store, 3, 5)).toEqual([15]);
    store.collect();
    expect(seen(store, 0, 0)).toEqual([1, 2]);
    wide.dispose();
    kept.dispose();
    store.collect();
    expect(seen(store, 0, 0)).toEqual([]);
    expect(seen(store, 3, 0)).toEqual([]);
  });

  it('rejects a chunk index outside the node or a bad depth', () => {
    const store = new NodeStore();
    for (const [d, i] of [[3, 8], [0, 1], [7, 0], [-1, 0], [2, 0.5]] as const) {
      expect(() => store.forEachLiveChunk(d, i, () => {})).toThrow(CoreError);
    }
  });
});
