/**
 * The fast paths of packed views against a plain model: `set` on a dirty
 * page (the element type's `_put`), every page loaded at once when a write
 * finds an eighth of a large list's pages dirty (`#loadAllPages`), spare
 * slabs handed from view to view, and a clone's page table inherited from
 * the view it was cloned from. After every commit the root equals the value
 * API's root of the model; old trees keep their roots; writes of the bytes
 * already there record nothing (a commit of them keeps the root node id);
 * bad values and indices are SszErrors with the type's path, and change
 * nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { container, list, SszError, toHex, uint8, uint32, uint64, vector } from '../src/index.js';

const expectSszError = (fn: () => void, code: string, path: string) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SszError);
    expect((e as SszError).code).toBe(code);
    expect((e as SszError).message).toContain(path);
    return;
  }
  throw new Error('expected an SszError');
};

describe('packed set: every page loaded at once past an eighth of a large list', () => {
  it('List[uint8] of 257 pages: random flag writes, equal writes and bad values, against the model', () => {
    const L = list(uint8, 2 ** 40);
    const n = 256 * 256 + 100;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(n - 1), fc.nat(255)), { minLength: 50, maxLength: 3000 }), fc.boolean(), (writes, restore) => {
        const initial = new Uint8Array(n);
        for (let i = 0; i < n; i++) initial[i] = (i * 7) & 255;
        const view = L.deserializeToView(L.serialize(initial));
        const before = toHex(view.hashTreeRoot());
        const kept = view.commit();
        const rootNode = view.rootNode;
        const model = initial.slice();
        for (const [i, v] of writes) {
          view.set(i, view.get(i) | v);
          model[i] = model[i]! | v;
          expect(view.get(i)).toBe(model[i]);
        }
        expectSszError(() => view.set(5, 256), 'INVALID_VALUE', 'List[uint8');
        expectSszError(() => view.set(5, -1), 'INVALID_VALUE', 'List[uint8');
        expectSszError(() => view.set(5, 1.5), 'INVALID_VALUE', 'List[uint8');
        expectSszError(() => view.set(n, 1), 'BAD_PATH', 'List[uint8');
        expect(view.get(5)).toBe(model[5]);
        if (restore) {
          // Every write taken back: nothing changed, the root node stays.
          for (const [i] of writes) view.set(i, initial[i]!);
          expect(view.rootNode).toBe(rootNode);
          model.set(initial);
        }
        expect(toHex(view.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
        expect(toHex(kept.root)).toBe(before);
        kept.dispose();
        view.dispose();
      }),
      { numRuns: 25 },
    );
  });

  it('List[uint64] and Vector[uint32]: sweeps and scattered writes, views one after another (spare slabs)', () => {
    const L = list(uint64, 2 ** 40);
    const V = vector(uint32, 300 * 64);
    const n = 300 * 32;
    const model = new BigUint64Array(n);
    for (let i = 0; i < n; i++) model[i] = BigInt(i) * 1_000_003n;
    const vm = new Uint32Array(V.length);
    let view = L.deserializeToView(L.serialize(model));
    let vv = V.toView(vm);
    const r = fc.sample(fc.nat(n - 1), { numRuns: 4000, seed: 3 });
    for (let round = 0; round < 6; round++) {
      const next = view.clone();
      const nextV = vv.clone();
      const old = toHex(view.hashTreeRoot());
      const oldV = toHex(vv.hashTreeRoot());
      if (round % 2 === 0) for (let i = 0; i < n; i++) next.set(i, (model[i] = BigInt(i + round) * 7n));
      else for (const [k, i] of r.entries()) next.set(i, (model[i] = BigInt(k * round)));
      for (const [k, i] of r.entries()) nextV.set((i * 2) % V.length, (vm[(i * 2) % V.length] = (k * 2654435761 + round) >>> 0));
      expectSszError(() => next.set(1, 2n ** 64n), 'INVALID_VALUE', 'List[uint64');
      expectSszError(() => nextV.set(1, 2 ** 32), 'INVALID_VALUE', 'Vector[uint32');
      expect(toHex(next.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
      expect(toHex(nextV.hashTreeRoot())).toBe(toHex(V.hashTreeRoot(vm)));
      expect(toHex(view.hashTreeRoot())).toBe(old);
      expect(toHex(vv.hashTreeRoot())).toBe(oldV);
      view.dispose();
      vv.dispose();
      view = next;
      vv = nextV;
    }
    view.dispose();
    vv.dispose();
  });
});

describe('uint64 values out of range', () => {
  it('are typed errors on dirty and clean pages, residues mod 2^64 included, and write nothing', () => {
    const L = list(uint64, 2 ** 40);
    const n = 64 * 32;
    const model = BigUint64Array.from({ length: n }, (_, i) => BigInt(i) * 3n + 1n);
    const view = L.toView(model.slice());
    const committed = view.commit();
    const root = toHex(committed.root);
    view.set(5, (model[5] = 2n ** 63n + 9n)); // page 0 dirty; page 1 clean
    const bad: unknown[] = [-1n, 2n ** 64n, 2n ** 64n + 5n, 2n ** 65n + 7n, -(2n ** 64n) + 3n, -(2n ** 64n), 5, '5', null];
    for (const v of bad)
      for (const i of [6, 40]) {
        expectSszError(() => view.set(i, v as bigint), 'INVALID_VALUE', 'List[uint64');
        expect(view.get(i)).toBe(model[i]);
      }
    view.set(40, (model[40] = 2n ** 64n - 1n));
    expect(toHex(view.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
    expect(toHex(committed.root)).toBe(root);
    committed.dispose();
    view.dispose();
  });
});

describe('a clone inherits the page table of the view it was cloned from', () => {
  it('both versions read and write their own pages (the table copied, checked against the root)', () => {
    const State = container({ balances: list(uint64, 2 ** 40), flags: list(uint8, 2 ** 40), slot: uint64 }, 'State');
    const n = 40_000;
    const balances = BigUint64Array.from({ length: n }, (_, i) => BigInt(i) * 11n);
    const flags = Uint8Array.from({ length: n }, (_, i) => i % 8);
    const value = { balances, flags, slot: 1n };
    let head = State.deserializeToView(State.serialize(value));
    head.hashTreeRoot();
    const r = fc.sample(fc.nat(n - 1), { numRuns: 3000, seed: 11 });
    // The head reads many pages (its table fills), then each block is a clone that writes.
    for (const i of r) {
      expect(head.balances.get(i)).toBe(balances[i]);
      expect(head.flags.get(i)).toBe(flags[i]);
    }
    let model = { balances: balances.slice(), flags: flags.slice(), slot: 1n };
    for (let block = 0; block < 5; block++) {
      const next = head.clone();
      const nextModel = { balances: model.balances.slice(), flags: model.flags.slice(), slot: model.slot + 1n };
      for (const [k, i] of r.slice(block * 500, block * 500 + 1200).entries()) {
        next.balances.set(i, (nextModel.balances[i] = BigInt(k + block)));
        next.flags.set(i, (nextModel.flags[i] = nextModel.flags[i]! | (1 << (block % 8))));
      }
      next.slot = nextModel.slot;
      // The old head moves on too, apart: its later commit must not reach the clone's table.
      const headRoot = toHex(head.hashTreeRoot());
      if (block === 2) {
        head.balances.set(r[0]!, 123n);
        head.flags.set(r[1]!, 255);
        const moved = { ...model, balances: model.balances.slice(), flags: model.flags.slice() };
        moved.balances[r[0]!] = 123n;
        moved.flags[r[1]!] = 255;
        expect(toHex(head.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(moved)));
      } else expect(toHex(head.hashTreeRoot())).toBe(headRoot);
      expect(toHex(next.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(nextModel)));
      for (const i of r.slice(0, 400)) {
        expect(next.balances.get(i)).toBe(nextModel.balances[i]);
        expect(next.flags.get(i)).toBe(nextModel.flags[i]);
      }
      head.dispose();
      head = next;
      model = nextModel;
      // Now the only holder: the next writes commit in place, on the inherited table.
      head.balances.set(r[7]!, (model.balances[r[7]!] = 5n));
      expect(toHex(head.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(model)));
    }
    // A field replaced wholesale drops what its old view handed on.
    const next = head.clone();
    const fresh = BigUint64Array.from({ length: n }, (_, i) => BigInt(i));
    next.balances = fresh as never;
    for (const i of r.slice(0, 50)) expect(next.balances.get(i)).toBe(fresh[i]);
    expect(toHex(next.hashTreeRoot())).toBe(toHex(State.hashTreeRoot({ ...model, balances: fresh })));
    next.dispose();
    head.dispose();
  });
});
