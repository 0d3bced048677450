/**
 * Packed views whose pages were all loaded at once, in page order (`#flat`
 * in view/packed.ts): `get` and `set` then read and write element i at byte
 * i << elemShift of the slab, with no page lookup. Against a plain model:
 * blocks on clones after a bulk commit (every page loaded at the first
 * write), sweeps in index order (loaded once the sweep is recognised),
 * pushes past the loaded length, bad values and indices (typed errors that
 * change nothing), rewrites of the values there (the root node kept), and a
 * disposed view (STALE_VIEW, not a read of the dropped slab). Old versions
 * keep their roots and every node is given back at the end.
 */
import { NodeStore } from '@ssztree/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { container, list, SszError, toHex, uint8, uint64, uint64Number, vector } from '../src/index.js';
import { giveSlab, takeSlab } from '../src/view/packedSlabs.js';
import { expectAllReleased, expectKeptUnchanged, type Kept } from './released.js';

const expectCode = (fn: () => unknown, code: string) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SszError);
    expect((e as SszError).code).toBe(code);
    return;
  }
  throw new Error(`expected an SszError ${code}`);
};

/** A write of a block: an index (a fraction of the length, so pushes move it) and a value. */
type Op = { kind: 'or'; at: number; v: number } | { kind: 'set'; at: number; v: number } | { kind: 'push'; v: number } | { kind: 'bad'; at: number; v: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('or' as const), at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), v: fc.nat(255) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), v: fc.nat(255) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('push' as const), v: fc.nat(255) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bad' as const), at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), v: fc.constantFrom(256, -1, 1.5, Number.NaN) }) },
);

describe('packed views with every page loaded in order', () => {
  it('List[uint8] blocks on clones (all pages loaded at the first write after a bulk commit): reads, writes, pushes and errors against the model', () => {
    const L = list(uint8, 2 ** 40);
    // 300 pages: at least LOAD_ALL_MIN_PAGES, so a block that rewrites most pages is followed by loads of every page.
    const n0 = 300 * 256 + 17;
    fc.assert(
      fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 300 }), { minLength: 1, maxLength: 4 }), fc.nat(), (blocks, seed) => {
        const store = new NodeStore();
        let model = Uint8Array.from({ length: n0 }, (_, i) => (i * 13 + seed) & 255);
        let head = L.deserializeToView(L.serialize(model), store);
        head.hashTreeRoot();
        const kept: Kept[] = [];
        // A first block rewrites every page (a bulk commit): each later clone loads all pages at its first write.
        {
          const next = head.clone();
          for (let i = 0; i < model.length; i += 16) next.set(i, (model[i] = model[i]! ^ 1));
          expect(toHex(next.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
          head.dispose();
          head = next;
        }
        for (const ops of blocks) {
          const tree = head.commit();
          kept.push({ tree, root: toHex(tree.root) });
          const next = head.clone();
          const m = Array.from(model);
          for (const o of ops) {
            const i = o.kind === 'push' ? -1 : Math.floor(o.at * m.length);
            if (o.kind === 'or') {
              next.set(i, next.get(i) | o.v);
              m[i] = m[i]! | o.v;
            } else if (o.kind === 'set') {
              next.set(i, o.v);
              m[i] = o.v;
            } else if (o.kind === 'push') {
              next.push(o.v);
              m.push(o.v);
            } else {
              expectCode(() => next.set(i, o.v), 'INVALID_VALUE');
              expectCode(() => next.set(m.length, 1), 'BAD_PATH');
              expectCode(() => next.get(m.length), 'BAD_PATH');
              expectCode(() => next.get(-1), 'BAD_PATH');
              expectCode(() => next.get(i + 0.5), 'BAD_PATH');
              expectCode(() => next.set(2 ** 32 + i, 1), 'BAD_PATH');
            }
            if (i >= 0) expect(next.get(i)).toBe(m[i]);
          }
          // Reads of elements this block never wrote come from the loaded pages: page edges and the tail.
          for (const i of [0, 255, 256, 511, 512, m.length - 1, Math.floor(m.length / 2)]) expect(next.get(i)).toBe(m[i]);
          expect(next.length).toBe(m.length);
          model = Uint8Array.from(m);
          expect(toHex(next.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
          // Written again after the commit (the loaded pages are gone): the writes still land.
          const j = Math.floor(model.length / 3);
          next.set(j, (model[j] = model[j]! ^ 0x80));
          expect(next.get(j)).toBe(model[j]);
          expect(toHex(next.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
          head.dispose();
          head = next;
        }
        expectKeptUnchanged(kept);
        expectAllReleased(store, kept, [head]);
      }),
      { numRuns: 20 },
    );
  });

  it('pages written one by one before the load of every page keep every byte written (first and last words included)', () => {
    const cases = [
      { type: list(uint8, 2 ** 40), n: 300 * 256, per: 256, of: (i: number) => (i * 29 + 7) & 255 },
      { type: list(uint64, 2 ** 40), n: 300 * 32, per: 32, of: (i: number) => BigInt(i) * 977n + 5n },
    ];
    for (const { type, n, per, of } of cases) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const t = type as any;
      const model = t.elementType === uint8 ? new Uint8Array(n) : new BigUint64Array(n);
      const view = t.deserializeToView(t.serialize(model));
      // Pages in scattered order, each written at its first and last element and once between, until an eighth are dirty and the rest load.
      for (let k = 0; k < 60; k++) {
        const p = (k * 149) % 300;
        for (const i of [p * per, p * per + per - 1, p * per + ((k * 7) % per)]) view.set(i, (model[i] = of(i + k)));
      }
      for (let p = 0; p < 300; p++) for (const i of [p * per, p * per + per - 1]) expect(view.get(i)).toBe(model[i]);
      expect(toHex(view.hashTreeRoot())).toBe(toHex(t.hashTreeRoot(model)));
      view.dispose();
    }
  });

  it('a slab growing page by page in a list that may load every page leaves the spare of that size for the load', () => {
    const L = list(uint8, 2 ** 40);
    const pages = 4096;
    const total = pages * 256;
    const model = new Uint8Array(pages * 256);
    const view = L.deserializeToView(L.serialize(model));
    const spare = { slab: new Uint8Array(total), orig: new Int32Array(total >>> 2) };
    // Whatever earlier tests left is taken out first, so only `spare` is one.
    while (takeSlab(0) !== null);
    giveSlab(spare);
    // 200 pages dirty one by one (the slab grows to 64 KiB, past the size where growth takes spares), below the eighth that loads every page.
    for (let k = 0; k < 200; k++) {
      const i = ((k * 613) % pages) * 256 + (k % 256);
      view.set(i, view.get(i) | (model[i] = (k % 255) + 1));
    }
    expect(takeSlab(total, total)?.slab === spare.slab).toBe(true);
    giveSlab(spare);
    // Past the eighth: every page loads, into the spare.
    for (let k = 200; k < 600; k++) {
      const i = ((k * 613) % pages) * 256 + (k % 256);
      view.set(i, view.get(i) | (model[i] = model[i]! | ((k % 255) + 1)));
    }
    expect(takeSlab(total, total)).toBeNull();
    expect(toHex(view.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
    // The commit gives it back.
    expect(takeSlab(total, total)?.slab === spare.slab).toBe(true);
    view.dispose();
  });

  it('rewrites of the values there, after every page was loaded, keep the root node', () => {
    const L = list(uint8, 2 ** 40);
    const n = 280 * 256;
    const model = Uint8Array.from({ length: n }, (_, i) => i & 255);
    let head = L.toView(model.slice());
    const next = head.clone();
    for (let i = 0; i < n; i += 8) next.set(i, (model[i] = model[i]! ^ 2));
    next.hashTreeRoot();
    head.dispose();
    head = next;
    const clone = head.clone();
    const root = clone.rootNode;
    for (let i = 0; i < n; i += 3) clone.set(i, clone.get(i));
    for (let i = 0; i < n; i += 5) clone.set(i, clone.get(i) | 0);
    expect(toHex(clone.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
    expect(clone.rootNode).toBe(root);
    clone.dispose();
    head.dispose();
  });

  it('List[uint64Number] swept in index order: numbers stored through the element type (not the bigint store), errors typed', () => {
    const L = list(uint64Number, 2 ** 40);
    const n = 300 * 32 + 3;
    const model = Array.from({ length: n }, (_, i) => i * 3);
    let head = L.toView(model.slice());
    for (let round = 1; round <= 2; round++) {
      const next = head.clone();
      for (let i = 0; i < n; i++) next.set(i, (model[i] = i * 5 + round));
      next.set(7, (model[7] = Infinity));
      expectCode(() => next.set(8, 2 ** 60), 'INVALID_VALUE');
      expectCode(() => next.set(8, 8n as unknown as number), 'INVALID_VALUE');
      expect(next.get(7)).toBe(Infinity);
      expect(toHex(next.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
      head.dispose();
      head = next;
    }
    head.dispose();
  });

  it('a disposed List[uint64] with every page loaded is STALE_VIEW for set', () => {
    const L = list(uint64, 2 ** 40);
    const n = 300 * 32;
    const head = L.toView(new BigUint64Array(n));
    const next = head.clone();
    for (let i = 0; i < n; i++) next.set(i, BigInt(i));
    expect(next.get(n - 1)).toBe(BigInt(n - 1));
    next.dispose();
    expectCode(() => next.set(5, 1n), 'STALE_VIEW');
    head.dispose();
  });

  it('a disposed view with every page loaded is STALE_VIEW for get and set', () => {
    const L = list(uint8, 2 ** 40);
    const n = 260 * 256;
    const head = L.toView(new Uint8Array(n));
    const next = head.clone();
    for (let i = 0; i < n; i += 4) next.set(i, 1);
    next.hashTreeRoot();
    const clone = next.clone();
    clone.set(7, clone.get(7) | 4); // every page loaded, element 7 in the slab
    expect(clone.get(7)).toBe(4);
    clone.dispose();
    expectCode(() => clone.get(7), 'STALE_VIEW');
    expectCode(() => clone.set(7, 1), 'STALE_VIEW');
    next.dispose();
    head.dispose();
  });

  it('List[uint64] and Vector[uint64] swept in index order (every page loaded once the sweep shows), then scattered writes and reads', () => {
    const cases = [
      { type: list(uint64, 2 ** 40), n: 400 * 32 + 5 },
      { type: vector(uint64, 400 * 32), n: 400 * 32 },
    ];
    for (const { type, n } of cases) {
      const store = new NodeStore();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const t = type as any;
      const model = BigUint64Array.from({ length: n }, (_, i) => BigInt(i) * 1_000_003n);
      let head = t.deserializeToView(t.serialize(model), store);
      head.hashTreeRoot();
      const kept: Kept[] = [];
      const picks = fc.sample(fc.nat(n - 1), { numRuns: 600, seed: 5 });
      for (let round = 0; round < 3; round++) {
        const tree = head.commit();
        kept.push({ tree, root: toHex(tree.root) });
        const next = head.clone();
        // A sweep rewriting every element in order (an epoch's balances), with reads of elements ahead of it.
        for (let i = 0; i < n; i++) {
          if (i % 97 === 0) expect(next.get((i * 7) % n)).toBe(model[(i * 7) % n]);
          next.set(i, (model[i] = BigInt(i + round) * 7n + BigInt(round)));
        }
        for (const i of picks) {
          next.set(i, (model[i] = model[i]! ^ 0xffff_0000_0000n));
          expect(next.get(i)).toBe(model[i]);
        }
        // Every page loaded: uint64 bigints are stored through the slab's BigUint64Array, which would wrap
        // these silently (2^64 + 7 to 7, -1 to 2^64 - 1) without the range check.
        for (const bad of [2n ** 64n, 2n ** 64n + 7n, -1n, -(2n ** 64n) + 5n, 5]) expectCode(() => next.set(3, bad), 'INVALID_VALUE');
        expect(next.get(3)).toBe(model[3]);
        next.set(4, (model[4] = 2n ** 64n - 1n));
        expect(next.get(4)).toBe(2n ** 64n - 1n);
        expect(toHex(next.hashTreeRoot())).toBe(toHex(t.hashTreeRoot(model)));
        head.dispose();
        head = next;
      }
      expectKeptUnchanged(kept);
      expectAllReleased(store, kept, [head]);
    }
  });
});

/** Counts the store's single-page copies (`recordWordsInto`) and loads of every page (`widesInto` by the page table, `copyLevelBytes` without) while `fn` runs. */
function counting(store: NodeStore, fn: () => void): { single: number; bulk: number } {
  const counts = { single: 0, bulk: 0 };
  const s = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  const wrap = (name: string, key: keyof typeof counts) => {
    const original = s[name]!;
    s[name] = (...args: unknown[]) => {
      counts[key]++;
      return original.apply(store, args);
    };
    return () => delete s[name];
  };
  const undo = [wrap('recordWordsInto', 'single'), wrap('widesInto', 'bulk'), wrap('copyLevelBytes', 'bulk')];
  try {
    fn();
  } finally {
    for (const u of undo) u();
  }
  return counts;
}

describe('a view with no history of its own takes its schema’s (packedHistory.ts)', () => {
  it('after a rebuild of randomly written pages, a view from bytes and a view of a value just assigned load every page at their first write; after a light block they load one', () => {
    // Schemas of this test only: no other test's commits are in their history.
    const Flags = list(uint8, 2 ** 40);
    const State = container({ flags: Flags, slot: uint64 }, 'HistoryState');
    const pages = 300;
    const n = pages * 256;
    const store = new NodeStore();
    const model = Uint8Array.from({ length: n }, (_, i) => i & 7);
    const bytes = Flags.serialize(model);
    const picks = fc.sample(fc.nat(n - 1), { numRuns: 6000, seed: 17 });
    const block = (view: ReturnType<typeof Flags.deserializeToView>, m: Uint8Array, bit: number) => {
      for (const i of picks) view.set(i, (m[i] = view.get(i) | bit));
    };
    // No history yet: the first write loads its page only.
    const first = Flags.deserializeToView(bytes, store);
    expect(counting(store, () => first.set(5, 200))).toEqual({ single: 1, bulk: 0 });
    first.dispose();
    // A block of random writes: most pages rebuilt.
    const a = Flags.deserializeToView(bytes, store);
    const ma = model.slice();
    block(a, ma, 16);
    expect(toHex(a.hashTreeRoot())).toBe(toHex(Flags.hashTreeRoot(ma)));
    a.dispose();
    // A state loaded again: the first write loads every page.
    const b = Flags.deserializeToView(bytes, store);
    expect(counting(store, () => b.set(5, (model[5] = 201)))).toEqual({ single: 0, bulk: 1 });
    const mb = model.slice();
    block(b, mb, 32);
    expect(toHex(b.hashTreeRoot())).toBe(toHex(Flags.hashTreeRoot(mb)));
    b.dispose();
    model[5] = 5 & 7;
    // A value just assigned to a field (an epoch's new participation list, all zero: zero subtrees, copied by one read of the level), committed, then written.
    const s = State.toView({ flags: model.slice(), slot: 1n }, store);
    s.setField('flags', new Uint8Array(n));
    s.hashTreeRoot();
    const zero = new Uint8Array(n);
    const flags = s.flags;
    expect(counting(store, () => flags.set(9, (zero[9] = 3)))).toEqual({ single: 0, bulk: 1 });
    expect(toHex(s.hashTreeRoot())).toBe(toHex(State.hashTreeRoot({ flags: zero, slot: 1n })));
    s.dispose();
    // A light block (every page loaded at its first write, few changed: committed page by page) predicts nothing.
    const c = Flags.deserializeToView(bytes, store);
    const mc = model.slice();
    for (let k = 0; k < 10; k++) c.set(k * 997, (mc[k * 997] = 128));
    expect(toHex(c.hashTreeRoot())).toBe(toHex(Flags.hashTreeRoot(mc)));
    c.dispose();
    const d = Flags.deserializeToView(bytes, store);
    expect(counting(store, () => d.set(5, 202))).toEqual({ single: 1, bulk: 0 });
    d.dispose();
  });
});
