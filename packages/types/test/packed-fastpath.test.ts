/**
 * The fast paths of packed views against a plain model: `set` on a dirty
 * page (the element type's `_put`), every page loaded at once when a write
 * finds an eighth of a large list's pages dirty (`#loadAllPages`), spare
 * slabs handed from view to view. After every commit the root equals the value
 * API's root of the model; old trees keep their roots; writes of the bytes
 * already there record nothing (a commit of them keeps the root node id);
 * bad values and indices are SszErrors with the type's path, and change
 * nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { list, SszError, toHex, uint8, uint32, uint64, vector } from '../src/index.js';

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
