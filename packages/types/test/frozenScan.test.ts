/**
 * The candidate scan of the frozen-value cache (`src/frozen/scan.ts`):
 * whatever candidate it picks, the units it reports are exactly where the
 * value differs from that candidate (checked against a brute-force diff on
 * random arrays, with and without noted changes), and the probe picks the
 * parent over a cousin.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noteChanges, scanCandidates } from '../src/frozen/scan.js';

function bruteUnits(value: readonly unknown[], old: readonly unknown[], per: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(value.length, old.length); i++) {
    const c = Math.floor(i / per);
    if (value[i] !== old[i] && out[out.length - 1] !== c) out.push(c);
  }
  return out;
}

/** A random array, two others derived from it by random edits, and a value derived from either (values from a small range, so edits may restore). */
const arrays = fc
  .record({
    base: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 400 }),
    editsA: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 3 })), { maxLength: 200 }),
    editsB: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 3 })), { maxLength: 200 }),
    editsV: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 3 })), { maxLength: 200 }),
    lenA: fc.integer({ min: -8, max: 8 }),
    lenV: fc.integer({ min: -8, max: 8 }),
    per: fc.constantFrom(1, 2, 4, 32),
    note: fc.boolean(),
    fromB: fc.boolean(),
  })
  .map((r) => {
    const edit = (src: readonly number[], edits: [number, number][], dl: number) => {
      const out = src.slice(0, Math.max(0, src.length + Math.min(dl, 0)));
      for (let k = 0; k < dl; k++) out.push(k & 3);
      for (const [i, v] of edits) if (out.length > 0) out[i % out.length] = v;
      return Object.freeze(out);
    };
    const a = edit(r.base, r.editsA, r.lenA);
    const b = edit(r.base, r.editsB, 0);
    return { ...r, a, b, value: edit(r.fromB ? b : a, r.editsV, r.lenV) };
  });

describe('frozen cache candidate scan', () => {
  it('reports exactly the differences against the candidate it picks (random arrays, per 1–32)', () => {
    fc.assert(
      fc.property(arrays, fc.boolean(), ({ a, b, value, per, note }, objects) => {
        if (note) {
          noteChanges(a, bruteUnits(a, b, per));
          noteChanges(b, bruteUnits(b, a, per));
        }
        for (const olds of [[a, b], [b, a], [null, a], [a]] as (readonly number[] | null)[][]) {
          const r = scanCandidates(value, olds, per, per === 1 && objects);
          expect(r).not.toBeNull();
          const chosen = olds[r!.which] as readonly number[];
          expect(chosen).not.toBeNull();
          expect(r!.units).toEqual(bruteUnits(value, chosen, per));
        }
        expect(scanCandidates(value, [null, null], per, false)).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('two candidates, no notes: the one with fewer differences wins, even when the other is dropped early', () => {
    const n = 20_000;
    const base = Array.from({ length: n }, (_, i) => ({ i }));
    const near = base.slice();
    const far = base.slice();
    for (let i = 0; i < 3000; i += 3) far[i] = { i: -1 }; // 1000 differences, all at the start: dropped early
    near[n - 1] = { i: -2 };
    const value = near.slice();
    value[5] = { i: -3 };
    for (const olds of [[far, near], [near, far]]) {
      const r = scanCandidates(value, olds, 1, true)!;
      expect(olds[r.which]).toBe(near);
      expect(r.units).toEqual([5]);
    }
  });

  it('a candidate dropped at an index where the other also differs: that index is still reported', () => {
    // a differs from value at 1..65; b only at 65. At i = 65, a falls 65 units behind and is dropped before b[65] is compared.
    const b = Array.from({ length: 200 }, () => 0);
    const value = b.slice();
    value[65] = 1;
    const a = b.slice();
    for (let i = 1; i <= 65; i++) a[i] = 2;
    const r = scanCandidates(value, [a, b], 1, false)!;
    expect(r.which).toBe(1);
    expect(r.units).toEqual([65]);
  });

  it('the probe picks the parent over a cousin from its noted changes', () => {
    const n = 10_000;
    const root = Object.freeze(Array.from({ length: n }, (_, i) => ({ i })));
    const parent = root.slice();
    for (let i = 100; i < 200; i++) parent[i] = { i };
    Object.freeze(parent);
    noteChanges(parent, bruteUnits(parent, root, 1));
    const cousin = root.slice();
    for (let i = 0; i < 50; i++) cousin[i] = { i }; // closer to root than parent is
    Object.freeze(cousin);
    noteChanges(cousin, bruteUnits(cousin, root, 1));
    const value = parent.slice();
    value[9000] = { i: 0 };
    const r = scanCandidates(value, [cousin, parent], 1, true)!;
    expect(r.which).toBe(1);
    expect(r.derived).toBe(true);
    expect(r.units).toEqual([9000]);
    // Against the cousin alone: still an exact diff, but not derived from it.
    const c = scanCandidates(value, [cousin], 1, true)!;
    expect(c.derived).toBe(false);
    expect(c.units).toEqual(bruteUnits(value, cousin, 1));
  });
});
