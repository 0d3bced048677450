/**
 * The byte fast path of packed views of uint8 (view/packed.ts, `#bytes`):
 * `get` and `set` on a dirty page read and store the slab byte themselves.
 * Against a plain model, with any value thrown at it (valid bytes, numbers
 * out of range or not integers, other types): valid values land, invalid
 * ones are SszErrors that change nothing, on clean and on dirty pages, in
 * lists small and large (past the eighth that loads every page) and in a
 * vector; after each commit the root equals the value API's; an older
 * version keeps its root. Booleans (also one byte) keep the element type's
 * path: `true` stays a boolean.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boolean, list, SszError, toHex, uint8, vector } from '../src/index.js';

/** A value as a caller might pass it: mostly valid bytes, the rest anything else. */
const anyValue = fc.oneof(
  { weight: 6, arbitrary: fc.nat(255) },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 2 ** 32 }) },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: -1 }) },
  { weight: 1, arbitrary: fc.double({ noInteger: true }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(Number.NaN, -0, true, '7', 7n, null, undefined) },
);

const isByte = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255;

describe('packed uint8 views: the byte fast path against a model', () => {
  for (const [name, n] of [
    ['small list (a few pages)', 1000],
    ['large list (every page loaded at once past an eighth)', 256 * 300],
  ] as const) {
    it(`${name}: any values, reads after writes, commit roots, old versions kept`, () => {
      const L = list(uint8, 2 ** 40);
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.nat(n - 1), anyValue), { minLength: 1, maxLength: 4000 }), (writes) => {
          const initial = new Uint8Array(n);
          for (let i = 0; i < n; i++) initial[i] = (i * 13) & 255;
          const view = L.deserializeToView(L.serialize(initial));
          const model = initial.slice();
          const old = view.commit();
          const oldRoot = toHex(old.root);
          for (let k = 0; k < writes.length; k++) {
            const [i, v] = writes[k]!;
            if (isByte(v)) {
              view.set(i, v);
              model[i] = v;
            } else {
              expect(() => view.set(i, v as number)).toThrow(SszError);
            }
            expect(view.get(i)).toBe(model[i]);
            // Now and then a commit in the middle: later writes start from clean pages again.
            if (k % 1500 === 1499) expect(toHex(view.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
          }
          for (let i = 0; i < n; i += 97) expect(view.get(i)).toBe(model[i]);
          expect(toHex(view.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
          expect(toHex(old.root)).toBe(oldRoot);
          old.dispose();
          view.dispose();
        }),
        { numRuns: 20 },
      );
    });
  }

  it('Vector[uint8]: clone, writes on the clone, the original unchanged', () => {
    const V = vector(uint8, 64 * 32);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(V.length - 1), anyValue), { minLength: 1, maxLength: 500 }), (writes) => {
        const base = new Uint8Array(V.length).map((_, i) => (i * 5) & 255);
        const view = V.toView(base);
        const baseRoot = toHex(view.hashTreeRoot());
        const clone = view.clone();
        const model = base.slice();
        for (const [i, v] of writes) {
          if (isByte(v)) {
            clone.set(i, v);
            model[i] = v;
          } else expect(() => clone.set(i, v as number)).toThrow(SszError);
          expect(clone.get(i)).toBe(model[i]);
        }
        expect(toHex(clone.hashTreeRoot())).toBe(toHex(V.hashTreeRoot(model)));
        expect(toHex(view.hashTreeRoot())).toBe(baseRoot);
        clone.dispose();
        view.dispose();
      }),
      { numRuns: 30 },
    );
  });

  it('List[boolean] keeps the element type: booleans read back as booleans, numbers are rejected', () => {
    const L = list(boolean, 4096);
    const n = 3000;
    const view = L.toView(Array.from({ length: n }, (_, i) => i % 3 === 0));
    const model = Array.from({ length: n }, (_, i) => i % 3 === 0);
    for (let k = 0; k < 2000; k++) {
      const i = (k * 7919) % n;
      view.set(i, k % 2 === 0);
      model[i] = k % 2 === 0;
      expect(view.get(i)).toBe(model[i]);
    }
    expect(() => view.set(7, 1 as unknown as boolean)).toThrow(SszError);
    expect(view.get(7)).toBe(model[7]);
    expect(toHex(view.hashTreeRoot())).toBe(toHex(L.hashTreeRoot(model)));
    view.dispose();
  });
});
