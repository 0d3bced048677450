/**
 * The element table (src/view/elementTable.ts) on its own: `reserve` before
 * a commit's many puts folds the overlay into a private base at once, and a
 * clone's table taken over before that (its base frozen, shared) never sees
 * the puts; every entry reads as the plain model of puts and drops says.
 */
import { describe, expect, it } from 'vitest';
import { ElementTable, OVERLAY_MAX } from '../src/view/elementTable.js';

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
});
