/**
 * The element table (src/view/elementTable.ts) on its own: `reserve` before
 * a commit's many puts folds the maps into a private base at once, and a
 * clone's table taken over before that (its base frozen, shared) never sees
 * the puts; every entry reads as the plain model of puts, pair puts (one
 * entry for both halves, a later put of one position winning over it) and
 * drops says, across chains of clones and folds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ElementTable, OVERLAY_MAX, placedRecords } from '../src/view/elementTable.js';

const n = 3 * OVERLAY_MAX;

/** A table of a full base (entry of i: i + 1), as one walk fills it. */
function filled(): ElementTable {
  const t = new ElementTable();
  t.fill(Int32Array.from({ length: n }, (_, i) => i + 1));
  return t;
}

describe('element table', () => {
  for (const reserve of [true, false]) {
    it(`${reserve ? 'reserve, then' : 'no reserve:'} more puts than the overlay holds on a table whose base a clone shares: both tables read as their models`, () => {
      const parent = filled();
      const hint = parent.hint(7)!;
      const child = new ElementTable();
      child.inherit(hint);
      const model = Array.from({ length: n }, (_, i) => i + 1);
      const puts = 2 * OVERLAY_MAX + 5;
      if (reserve) child.reserve(puts, n);
      for (let k = 0; k < puts; k++) {
        const i = (k * 7919) % n;
        child.put(i, -(k + 1), n);
        model[i] = -(k + 1);
      }
      for (let i = 0; i < n; i += 3) {
        child.drop(i, n);
        model[i] = 0;
      }
      for (let i = 0; i < n; i++) expect(child.get(i)).toBe(model[i]);
      // The frozen base the clone took over is the parent's: untouched.
      for (let i = 0; i < n; i++) expect(parent.get(i)).toBe(i + 1);
      expect(child.filled).toBe(true);
    });
  }

  it('reserve below the overlay bound keeps the shared base (no copy) and the puts in the overlay', () => {
    const parent = filled();
    const child = new ElementTable();
    child.inherit(parent.hint(3)!);
    child.reserve(10, n);
    child.put(5, -9, n);
    expect(child.get(5)).toBe(-9);
    expect(parent.get(5)).toBe(6);
    // The next clone of the child still shares the parent's base (a fold would have copied it).
    const grandchild = new ElementTable();
    grandchild.inherit(child.hint(3)!);
    expect(grandchild.get(5)).toBe(-9);
    expect(grandchild.get(6)).toBe(7);
  });

  type Op = { kind: 'put' | 'pair' | 'drop' | 'reserve' | 'clone' | 'switch'; at: number; value: number };
  const op = fc.record({
    kind: fc.constantFrom('put', 'pair', 'pair', 'pair', 'drop', 'reserve', 'clone', 'switch'),
    at: fc.integer({ min: 0, max: n - 1 }),
    value: fc.integer({ min: -(2 ** 30), max: 2 ** 30 }),
  }) as fc.Arbitrary<Op>;

  it('property: puts, pair puts and drops across clones and folds read as each table model says', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(op, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: OVERLAY_MAX }), (fill, ops, burst) => {
        const first = fill ? filled() : new ElementTable();
        const tables = [{ table: first, model: Array.from({ length: n }, (_, i) => (fill ? i + 1 : 0)) }];
        let cur = 0;
        for (const { kind, at, value } of ops) {
          const t = tables[cur]!;
          if (kind === 'put') {
            t.table.put(at, value, n);
            t.model[at] = value;
          } else if (kind === 'pair') {
            // A burst of pair puts, as a commit's, enough of them to fold the maps now and then.
            const count = 1 + (Math.abs(value) % burst);
            for (let k = 0; k < count; k++) {
              const p = (Math.floor(at / 2) + k * 7919) % Math.floor(n / 2);
              t.table.putPair(p, value + k, n);
              t.model[2 * p] = t.model[2 * p + 1] = value + k;
            }
          } else if (kind === 'drop') {
            t.table.drop(at, n);
            t.model[at] = 0;
          } else if (kind === 'reserve') t.table.reserve(Math.abs(value) % (2 * OVERLAY_MAX), n);
          else if (kind === 'clone') {
            const hint = t.table.hint(1);
            const child = new ElementTable();
            if (hint !== undefined) child.inherit(hint);
            tables.push({ table: child, model: hint === undefined ? new Array<number>(n).fill(0) : t.model.slice() });
          } else cur = Math.abs(value) % tables.length;
        }
        for (const { table, model } of tables) for (let i = 0; i < n; i++) if (table.get(i) !== model[i]) expect(table.get(i)).toBe(model[i]);
      }),
      { numRuns: 40 },
    );
  });

  it('a table placed by a build reads the same entries after its first fold (runs written into the base) as before (each found in the runs)', () => {
    // Runs of pairs and of single records, over lists of odd and even length, shorter and longer than the records placed.
    for (const paired of [true, false]) {
      for (const length of [2 * 9 + 1, 2 * 9, 2 * 12 + 1, 7]) {
        const placed = placedRecords(5, [100, 3, 40, 1, 700, 5], paired)!;
        const t = new ElementTable();
        t.fromRuns(placed);
        const before = Array.from({ length }, (_, i) => t.get(i));
        t.reserve(OVERLAY_MAX + 1, length);
        const after = Array.from({ length }, (_, i) => t.get(i));
        expect(after).toEqual(before);
        // The runs' entries: record k of run r at slot slots[r] + k - firsts[r] (kind 5), for both halves of a pair.
        const slotOf = [100, 101, 102, 40, 700, 701, 702, 703, 704];
        const model = Array.from({ length }, (_, i) => {
          const k = paired ? i >> 1 : i;
          return k < slotOf.length ? (paired ? -(((slotOf[k]! << 4) | 5) + 1) : ((slotOf[k]! << 4) | 5) + 1) : 0;
        });
        expect(after).toEqual(model);
      }
    }
  });
});
