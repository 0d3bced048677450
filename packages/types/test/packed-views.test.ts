/**
 * Packed views (lists and vectors of uints and booleans) against a plain
 * array model, over random operation sequences: sets (including writes of
 * the value already there and writes that restore the committed value),
 * reads, pushes and commits. After every commit the root equals the value
 * API's root of the model, the old committed trees keep their roots, and a
 * commit whose writes all came back to the committed bytes keeps the root
 * node id. Pages read from trees stored another way (leaves and branches,
 * not wide leaves) go through the slow path and agree too.
 */
import { NodeStore } from '@ssztree/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedPositions } from '../src/view/packedPages.js';
import { type BasicArray, boolean, container, list, type ListBasicType, toHex, uint8, uint16, uint64, vector, type VectorBasicType } from '../src/index.js';

type Op = { kind: 'set'; at: number; value: number } | { kind: 'restore'; at: number } | { kind: 'get'; at: number } | { kind: 'push'; value: number } | { kind: 'commit' };

const ops = (maxIndex: number) =>
  fc.array(
    fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(maxIndex), value: fc.nat(3) }), weight: 6 },
      { arbitrary: fc.record({ kind: fc.constant('restore' as const), at: fc.nat(maxIndex) }), weight: 2 },
      { arbitrary: fc.record({ kind: fc.constant('get' as const), at: fc.nat(maxIndex) }), weight: 2 },
      { arbitrary: fc.record({ kind: fc.constant('push' as const), value: fc.nat(3) }), weight: 1 },
      { arbitrary: fc.record({ kind: fc.constant('commit' as const) }), weight: 1 },
    ),
    { maxLength: 120 },
  );

/** Runs `script` on a view of `initial` and on a model array; checks reads and roots as it goes. */
function check<V>(
  type: ListBasicType<V, BasicArray<V>> | VectorBasicType<V, BasicArray<V>>,
  initial: V[],
  script: Op[],
  make: (seed: number, at: number) => V,
  isList: boolean,
  viewOf?: (store: NodeStore) => unknown,
): void {
  const store = new NodeStore();
  const arrayOf = (values: V[]) => type.elementType._arrayFrom(values);
  // biome-ignore lint: the view's element type is V; the test drives it dynamically.
  const view: any = viewOf ? viewOf(store) : type.toView(arrayOf(initial), store);
  const model = initial.slice();
  let committed = initial.slice();
  const kept: { tree: ReturnType<typeof view.commit>; root: string }[] = [];
  const same = (a: V, b: V) => (typeof a === 'bigint' || typeof a === 'number' || typeof a === 'boolean' ? a === b : false);
  for (const op of script) {
    if (op.kind === 'push') {
      if (!isList) continue;
      const v = make(op.value, model.length);
      view.push(v);
      model.push(v);
      continue;
    }
    if (op.kind === 'commit') {
      const before = view.rootNode;
      const unchanged = model.length === committed.length && model.every((v, i) => same(v, committed[i] as V));
      const tree = view.commit();
      if (unchanged) expect(view.rootNode).toBe(before);
      expect(toHex(view.hashTreeRoot())).toBe(toHex(type.hashTreeRoot(arrayOf(model))));
      kept.push({ tree, root: toHex(tree.root) });
      committed = model.slice();
      continue;
    }
    if (model.length === 0) continue;
    const at = op.at % model.length;
    if (op.kind === 'get') expect(view.get(at)).toBe(model[at]);
    else {
      const v = op.kind === 'restore' ? (at < committed.length ? committed[at] : model[at]) as V : make(op.value, at);
      view.set(at, v);
      model[at] = v;
      expect(view.get(at)).toBe(v);
    }
  }
  expect(toHex(view.hashTreeRoot())).toBe(toHex(type.hashTreeRoot(arrayOf(model))));
  expect([...view]).toEqual(model);
  for (const k of kept) {
    expect(toHex(k.tree.root)).toBe(k.root);
    k.tree.dispose();
  }
  view.dispose();
}

describe('packed views agree with a model', () => {
  it('List[uint64] across many pages (reads hit the page cache, writes the slab)', () => {
    const type = list(uint64, 2 ** 40);
    const make = (seed: number, at: number) => BigInt(at * 7 + seed) * 1_000_000_007n;
    fc.assert(
      fc.property(fc.nat(300), ops(400), (n, script) => {
        check(type, Array.from({ length: n }, (_, i) => make(0, i)), script, make, true);
      }),
      { numRuns: 60 },
    );
  });

  it('Vector[uint16] and List[uint8] and List[boolean]', () => {
    const v16 = vector(uint16, 200);
    const l8 = list(uint8, 5000);
    const lb = list(boolean, 5000);
    fc.assert(
      fc.property(ops(300), (script) => {
        check(v16, Array.from({ length: 200 }, (_, i) => i), script, (s, at) => (at * 13 + s) & 0xffff, false);
        check(l8, Array.from({ length: 70 }, (_, i) => i & 3), script, (s) => s, true);
        check(lb, Array.from({ length: 300 }, (_, i) => i % 3 === 0), script, (s) => s % 2 === 1, true);
      }),
      { numRuns: 40 },
    );
  });

  it('the largest limits: packed pages 49 levels deep, composite elements 54 deep (the general walk)', () => {
    const balances = list(uint64, Number.MAX_SAFE_INTEGER);
    const make = (seed: number, at: number) => BigInt(at + seed * 1000);
    fc.assert(
      fc.property(fc.nat(100), ops(120), (n, script) => {
        check(balances, Array.from({ length: n }, (_, i) => make(0, i)), script, make, true);
      }),
      { numRuns: 30 },
    );
    const Item = container({ a: uint64, b: boolean }, 'Item');
    const Items = list(Item, Number.MAX_SAFE_INTEGER);
    const values = Array.from({ length: 5 }, (_, i) => ({ a: BigInt(i), b: false }));
    const view = Items.toView(values);
    view.get(3).a = 99n;
    view.get(4).b = true;
    view.push({ a: 7n, b: true });
    values[3] = { a: 99n, b: false };
    values[4] = { a: 4n, b: true };
    values.push({ a: 7n, b: true });
    expect(toHex(view.hashTreeRoot())).toBe(toHex(Items.hashTreeRoot(values)));
    expect(view.get(3).a).toBe(99n);
    view.dispose();
  });

  it('one-chunk vectors (the page is the root leaf)', () => {
    const type = vector(uint64, 4);
    fc.assert(
      fc.property(ops(3), (script) => {
        check(type, [1n, 2n, 3n, 4n], script, (s, at) => BigInt(s * 10 + at), false);
      }),
      { numRuns: 60 },
    );
  });

  it('pages stored as branches and leaves (not wide leaves) read through the slow path', () => {
    const type = list(uint64, 2 ** 20);
    const make = (seed: number, at: number) => BigInt(at * 3 + seed);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), ops(250), (n, script) => {
        const initial = Array.from({ length: n }, (_, i) => make(0, i));
        const viewOf = (store: NodeStore) => {
          // The same value as a plain chunk tree: contents from chunks (branches and leaves), then the length.
          const bytes = type.serialize(type.elementType._arrayFrom(initial));
          const chunks = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
          chunks.set(bytes);
          const node = store.withLength(store.fromChunks(chunks, 18), n);
          return type._view(store, node);
        };
        check(type, initial, script, make, true, viewOf);
      }),
      { numRuns: 40 },
    );
  });
});

describe('sortedPositions (the commit sort of dirty pages)', () => {
  const bySort = (order: number[]) => Array.from(order.keys()).sort((a, b) => order[a]! - order[b]!);
  it('sorts positions by page, for page indices of one to four bytes and past 2^31', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(fc.nat(255), fc.nat(2 ** 15), fc.nat(2 ** 31 - 1), fc.integer({ min: 2 ** 31, max: 2 ** 40 })), { maxLength: 300 }), (order) => {
        expect(Array.from(sortedPositions(order))).toEqual(bySort(order));
      }),
      { numRuns: 300 },
    );
    expect(Array.from(sortedPositions([]))).toEqual([]);
    expect(Array.from(sortedPositions([0]))).toEqual([0]);
  });
});

describe('a large packed list (its page table filled in one walk after enough lookups)', () => {
  it('reads, writes, commits and sweeps over 4375 pages like the value API', () => {
    const L = list(uint64, 2 ** 40);
    const n = 140_000; // 4375 pages of 32: the 150 reads below pass the one-walk fill (136 lookups); the last page partial
    const model = new BigUint64Array(n + 1);
    for (let i = 0; i < n; i++) model[i] = BigInt(i) * 3n + 1n;
    const view = L.deserializeToView(L.serialize(model.subarray(0, n)));
    const r = fc.sample(fc.nat(n - 1), { numRuns: 300, seed: 7 });
    for (const i of r.slice(0, 150)) expect(view.get(i)).toBe(model[i]);
    for (const [k, i] of r.slice(150).entries()) {
      model[i] = BigInt(k) + 5n;
      view.set(i, model[i]!);
    }
    view.push(77n);
    model[n] = 77n;
    expect(toHex(view.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
    for (const i of r) expect(view.get(i)).toBe(model[i]);
    // Every page written (the bulk commit), then a block's scattered writes on its table.
    for (let i = 0; i < model.length; i++) view.set(i, (model[i] = BigInt(i) ^ 0x55n));
    expect(toHex(view.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
    for (const i of r.slice(0, 100)) view.set(i, (model[i] = 9n));
    expect(toHex(view.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
    for (const i of r) expect(view.get(i)).toBe(model[i]);
    view.dispose();
  });
});
