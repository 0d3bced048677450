/**
 * Page reads and writes (what packed views use): `chunkWordsAtDepthInto`
 * copies a record's chunks without making nodes, `setWidesAtDepth` writes
 * new wide leaves in one batch. Checked against a plain byte model:
 * every root equals merkleize of the model, old versions never change, and
 * the store holds no floating node afterwards.
 */
import { merkleize } from '@ssztree/hasher';
import { describe, expect, it } from 'vitest';
import { NodeStore, Tree } from '../src/index.js';
import { codeOf, hex } from './helpers.js';


/** Deterministic xorshift bytes. */
function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  return out;
}

describe('page reads and writes', () => {
  it('read and write pages of wide leaves at a deep level, matching a byte model', () => {
    const store = new NodeStore();
    const inner = 3;
    const pageBytes = 32 << inner;
    const level = 40; // deeper than 31: index arithmetic past 32 bits
    const used = 37; // pages holding data; the rest of the level is zero
    const model = randomBytes(used * pageBytes, 7);
    let tree = Tree.zero(level + inner, store);
    tree.setWidesAtDepth(level, Array.from({ length: used }, (_, p) => p), inner, model, Array.from({ length: used }, (_, p) => p * pageBytes));
    const expectRoot = (t: Tree, bytes: Uint8Array) => {
      // merkleize over 2^43 chunks is the zero-padded root of the used part lifted to depth 43.
      expect(hex(t.root)).toBe(hex(merkleize(bytes, 2 ** (level + inner))));
    };
    expectRoot(tree, model);
    const out = new Int32Array(2 * (pageBytes >>> 2));
    for (let p = 0; p < used; p++) {
      expect(tree.chunkWordsAtDepthInto(level, p, inner, out, pageBytes >>> 2)).toBe(true);
      expect(hex(new Uint8Array(out.buffer, pageBytes, pageBytes))).toBe(hex(model.subarray(p * pageBytes, (p + 1) * pageBytes)));
    }
    // Zero pages read as zeros, far out in the level too.
    out.fill(-1);
    expect(tree.chunkWordsAtDepthInto(level, 2 ** 39 + 5, inner, out, 0)).toBe(true);
    expect(out.subarray(0, pageBytes >>> 2).every((w) => w === 0)).toBe(true);
    expect(out[pageBytes >>> 2]).toBe(-1);
    // A page stored another way (wrong inner depth asked) reads as false, nothing copied.
    out.fill(-1);
    expect(tree.chunkWordsAtDepthInto(level + 1, 0, inner - 1, out, 0)).toBe(false);
    expect(out.every((w) => w === -1)).toBe(true);

    // Sorted batches of new pages; the old version never changes.
    for (let round = 0; round < 5; round++) {
      const old = tree.clone();
      const oldRoot = hex(old.root);
      const next = model.slice();
      const pages = [...new Set(Array.from(randomBytes(6, 100 + round), (b) => b % used))].sort((a, b) => a - b);
      const data = randomBytes(pages.length * pageBytes, 200 + round);
      pages.forEach((p, k) => next.set(data.subarray(k * pageBytes, (k + 1) * pageBytes), p * pageBytes));
      tree.setWidesAtDepth(level, pages, inner, data, pages.map((_, k) => k * pageBytes));
      expectRoot(tree, next);
      expect(hex(old.root)).toBe(oldRoot);
      old.dispose();
      model.set(next);
    }
    store.collect();
    expect(store.stats().floating).toBe(0);
    tree.dispose();
    tree = Tree.zero(1, store);
    tree.dispose();
  });

  it('read leaves as one-chunk pages', () => {
    const store = new NodeStore();
    const chunks = randomBytes(4 * 32, 3);
    const tree = Tree.fromChunks(chunks, 2, store);
    const out = new Int32Array(8);
    for (let i = 0; i < 4; i++) {
      expect(tree.chunkWordsAtDepthInto(2, i, 0, out, 0)).toBe(true);
      expect(hex(new Uint8Array(out.buffer))).toBe(hex(chunks.subarray(32 * i, 32 * i + 32)));
    }
    // A branch is not a one-record page.
    expect(tree.chunkWordsAtDepthInto(1, 0, 0, out, 0)).toBe(false);
    tree.dispose();
  });

  it('reject bad arguments with typed errors', () => {
    const store = new NodeStore();
    const tree = Tree.zero(10, store);
    const out = new Int32Array(64);
    expect(codeOf(() => tree.chunkWordsAtDepthInto(54, 0, 3, out, 0))).toBe('DEPTH_RANGE');
    expect(codeOf(() => tree.chunkWordsAtDepthInto(4, 16, 3, out, 0))).toBe('INDEX_RANGE');
    expect(codeOf(() => tree.chunkWordsAtDepthInto(4, 0, 3, out, 1))).toBe('BAD_INPUT');
    const data = new Uint8Array(512);
    expect(codeOf(() => tree.setWidesAtDepth(7, [1, 0], 3, data, [0, 256]))).toBe('UNSORTED');
    expect(codeOf(() => tree.setWidesAtDepth(7, [0, 1], 3, data, [0, 300]))).toBe('BAD_INPUT');
    expect(codeOf(() => tree.setWidesAtDepth(7, [0], 7, data, [0]))).toBe('DEPTH_RANGE');
    expect(codeOf(() => tree.setWidesAtDepth(7, [0], 3, data, [0, 1]))).toBe('BAD_INPUT');
    // A write below a leaf fails part way: nothing floating survives the next sweep.
    const leafy = Tree.fromChunks(new Uint8Array(64).fill(1), 1, store);
    expect(codeOf(() => leafy.setWidesAtDepth(3, [0], 1, data, [0]))).toBe('NOT_BRANCH');
    store.collect();
    expect(store.stats().floating).toBe(0);
    leafy.dispose();
    tree.dispose();
  });
});

describe('flushing many wide leaves', () => {
  it('hashes runs of consecutive slots straight from the pool and scattered ones through staging, with the same roots', () => {
    const store = new NodeStore();
    const inner = 3;
    const pageBytes = 32 << inner;
    const level = 12;
    const used = 700;
    const model = randomBytes(used * pageBytes, 11);
    const all = Array.from({ length: used }, (_, p) => p);
    // A fresh store: 700 wide leaves in consecutive slots (long direct runs). The data is spread
    // out (one page in three) so that the batch is not hashed at creation but by the flush.
    const spread = (bytes: Uint8Array, n: number) => {
      const out = new Uint8Array(3 * n * pageBytes);
      for (let k = 0; k < n; k++) out.set(bytes.subarray(k * pageBytes, (k + 1) * pageBytes), 3 * k * pageBytes);
      return out;
    };
    const tree = Tree.zero(level + inner, store);
    tree.setWidesAtDepth(level, all, inner, spread(model, used), all.map((p) => 3 * p * pageBytes));
    expect(store.widePending[inner]!.length).toBe(used);
    expect(hex(tree.root)).toBe(hex(merkleize(model, 2 ** (level + inner))));
    for (let round = 0; round < 6; round++) {
      // Every third, then a random half of the pages rewritten: slots come back from the free lists
      // in pieces, so runs are short, long, and mixed.
      const pages = round % 2 === 0 ? all.filter((p) => p % 3 === round % 3) : all.filter((p) => (p * 2654435761 + round) % 7 < 4);
      const data = randomBytes(pages.length * pageBytes, 300 + round);
      const old = tree.clone();
      const oldRoot = hex(old.root);
      tree.setWidesAtDepth(level, pages, inner, spread(data, pages.length), pages.map((_, k) => 3 * k * pageBytes));
      expect(store.widePending[inner]!.length).toBe(pages.length);
      pages.forEach((p, k) => model.set(data.subarray(k * pageBytes, (k + 1) * pageBytes), p * pageBytes));
      expect(hex(tree.root)).toBe(hex(merkleize(model, 2 ** (level + inner))));
      expect(hex(old.root)).toBe(oldRoot);
      old.dispose();
      store.collect();
    }
    tree.dispose();
  });
});

describe('wide leaves hashed at creation (dense batches of 64 or more)', () => {
  it('pages from a slab in any order: roots equal a full rehash, old versions unchanged, nothing pending or left over', () => {
    const store = new NodeStore();
    for (const inner of [1, 3, 6]) {
      const pageBytes = 32 << inner;
      const level = 11;
      const used = 900;
      const model = randomBytes(used * pageBytes, inner);
      const all = Array.from({ length: used }, (_, p) => p);
      const tree = Tree.zero(level + inner, store);
      tree.setWidesAtDepth(level, all, inner, model, all.map((p) => p * pageBytes));
      expect(store.widePending[inner]!.length).toBe(0);
      expect(hex(tree.root)).toBe(hex(merkleize(model, 2 ** (level + inner))));
      for (let round = 0; round < 4; round++) {
        const pages = all.filter((p) => (p * 2654435761 + round) % 5 < 2 + (round % 3));
        // The slab holds the pages in a shuffled order, with a few unused gaps (as a view's slab may).
        const slots = pages.map((_, k) => (k * 7919) % (pages.length + 10));
        const slab = new Uint8Array(8 + (pages.length + 10) * pageBytes).subarray(8);
        const data = randomBytes(pages.length * pageBytes, 500 + round + inner);
        pages.forEach((_, k) => slab.set(data.subarray(k * pageBytes, (k + 1) * pageBytes), slots[k]! * pageBytes));
        const old = tree.clone();
        const oldRoot = hex(old.root);
        const created: number[] = [];
        tree.setWidesAtDepth(level, pages, inner, slab, slots.map((s) => s * pageBytes), created);
        expect(store.widePending[inner]!.length).toBe(0);
        pages.forEach((p, k) => model.set(data.subarray(k * pageBytes, (k + 1) * pageBytes), p * pageBytes));
        expect(hex(tree.root)).toBe(hex(merkleize(model, 2 ** (level + inner))));
        expect(store.hash(created[5]!)).toEqual(merkleize(data.subarray(5 * pageBytes, 6 * pageBytes)));
        expect(hex(old.root)).toBe(oldRoot);
        old.dispose();
      }
      tree.dispose();
    }
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('a dense batch that fails part way leaves nothing behind after the sweep', () => {
    const store = new NodeStore();
    const data = randomBytes(100 * 256, 9);
    const offsets = Array.from({ length: 100 }, (_, k) => k * 256);
    // Positions 0..99 of level 7, but the first 64 pages' subtree is a leaf: the write fails below it.
    const tree = new Tree(store.branch(store.leaf(new Uint8Array(32).fill(3)), store.zero(9)), store);
    const before = store.stats().nodes;
    expect(codeOf(() => tree.setWidesAtDepth(7, offsets.map((_, k) => k), 3, data, offsets))).toBe('NOT_BRANCH');
    store.collect();
    expect(store.stats().nodes).toBe(before);
    expect(store.stats().floating).toBe(0);
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});

describe('setWidesAtDepth from unaligned bytes', () => {
  it('copies bytes (not words) and gives the same root', () => {
    const store = new NodeStore();
    const pageBytes = 64;
    const bytes = randomBytes(5 * pageBytes + 1, 5);
    const unaligned = bytes.subarray(1);
    const a = Tree.zero(6, store);
    const b = Tree.zero(6, store);
    a.setWidesAtDepth(5, [1, 4, 9, 20, 31], 1, unaligned, [0, 64, 128, 192, 256]);
    b.setWidesAtDepth(5, [1, 4, 9, 20, 31], 1, unaligned.slice(), [0, 64, 128, 192, 256]);
    expect(hex(a.root)).toBe(hex(b.root));
    const model = new Uint8Array(64 * 32);
    [1, 4, 9, 20, 31].forEach((p, k) => model.set(unaligned.subarray(64 * k, 64 * k + 64), 64 * p));
    expect(hex(a.root)).toBe(hex(merkleize(model, 64)));
    a.dispose();
    b.dispose();
  });
});

describe('widesInto: pages copied out by id', () => {
  it('copies wide leaves in runs and scattered back to back, and copies nothing when an id is not a wide leaf of the depth', () => {
    const store = new NodeStore();
    const inner = 3;
    const pageBytes = 32 << inner;
    const count = 700;
    const data = randomBytes(count * pageBytes, 11);
    const ids = new Int32Array(count);
    const root = store.fromPages({ data }, count, inner, 10, ids);
    const tree = new Tree(root, store);
    // Runs of neighbouring slots, in order and out of order, and single scattered leaves.
    const order = Array.from({ length: count }, (_, i) => (i < 400 ? i : count - 1 - (i - 400)));
    const some = new Int32Array(order.map((p) => ids[p]!));
    const out = new Uint8Array(count * pageBytes + 8);
    expect(store.widesInto(some, count, inner, out, 8)).toBe(true);
    order.forEach((p, k) => expect(hex(out.subarray(8 + k * pageBytes, 8 + (k + 1) * pageBytes))).toBe(hex(data.subarray(p * pageBytes, (p + 1) * pageBytes))));
    const lone = store.wide(randomBytes(pageBytes, 12));
    const mixed = new Int32Array([ids[3]!, lone, ids[4]!]);
    const three = new Uint8Array(3 * pageBytes);
    expect(store.widesInto(mixed, 3, inner, three, 0)).toBe(true);
    expect(hex(three.subarray(pageBytes, 2 * pageBytes))).toBe(hex(store.wideChunks(lone)));
    const untouched = new Uint8Array(3 * pageBytes);
    expect(store.widesInto(new Int32Array([ids[0]!, store.leaf(new Uint8Array(32)), ids[1]!]), 3, inner, untouched, 0)).toBe(false);
    expect(store.widesInto(new Int32Array([ids[0]!]), 1, 2, untouched, 0)).toBe(false);
    expect(untouched.every((b) => b === 0)).toBe(true);
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});
