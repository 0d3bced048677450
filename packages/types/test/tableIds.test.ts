/**
 * Recycled element table bases (src/view/tableIds.ts): an array comes back
 * only after the base holding it was collected, and comes back zeroed, so
 * no table — a live version's or a clone's sharing a frozen base — ever
 * reads another's entries. Fails if a base were recycled while a table or
 * a hint still held it, or handed out dirty.
 */
import { describe, expect, it } from 'vitest';
import { collectUntil } from './gc.js';
import { ElementTable } from '../src/view/elementTable.js';
import { RECYCLED_MIN, recycledCount, takeIds } from '../src/view/tableIds.js';

const n = RECYCLED_MIN;

/** A table whose base one walk filled with `entry(i)`. */
function filled(entry: (i: number) => number): ElementTable {
  const t = new ElementTable();
  const ids = takeIds(n);
  for (let i = 0; i < n; i++) ids[i] = entry(i);
  t.fill(ids);
  return t;
}

/** Drains the recycled arrays (each taken once: they are garbage afterwards). */
function drain(): void {
  while (recycledCount() > 0) takeIds(n);
}

describe('recycled element table bases', () => {
  it('a collected base comes back zeroed, and only one of the same length', async () => {
    drain();
    (() => {
      filled((i) => i + 1);
    })();
    expect(await collectUntil(() => recycledCount() > 0, 20)).toBe(true);
    expect(takeIds(n + 2).length).toBe(n + 2);
    expect(recycledCount()).toBe(1);
    const ids = takeIds(n);
    expect(recycledCount()).toBe(0);
    expect(ids.every((v) => v === 0)).toBe(true);
  });

  it('a frozen base a clone took over is not recycled when the table it came from is gone', async () => {
    drain();
    const child = new ElementTable();
    (() => {
      const parent = filled((i) => i + 1);
      child.inherit(parent.hint(1)!);
    })();
    // The parent is garbage, the base it shared is not: nothing to recycle.
    await collectUntil(() => recycledCount() > 0, 5);
    expect(recycledCount()).toBe(0);
    // Other tables fold and write into whatever arrays they get.
    for (let round = 0; round < 3; round++) {
      const other = filled(() => -7);
      other.reserve(2 * n, n);
      for (let i = 0; i < n; i++) other.put(i, -9, n);
      await collectUntil(() => false, 2);
    }
    for (let i = 0; i < n; i++) if (child.get(i) !== i + 1) expect(child.get(i)).toBe(i + 1);
  });

  it('a chain of clones, each folding a commit of many pairs, reads as its model while the bases it drops are recycled', async () => {
    drain();
    let model = Array.from({ length: n }, (_, i) => i + 1);
    let table = filled((i) => i + 1);
    let recycled = 0;
    for (let version = 0; version < 8; version++) {
      const clone = new ElementTable();
      clone.inherit(table.hint(version)!);
      const next = [...model];
      const pairs = 3000;
      clone.reserve(pairs, n);
      for (let k = 0; k < pairs; k++) {
        const p = (k * 7919 + version * 31) % (n >>> 1);
        clone.putPair(p, -(version * pairs + k + 1), n);
        next[2 * p] = next[2 * p + 1] = -(version * pairs + k + 1);
      }
      // The version cloned from reads as before, the clone as its own.
      for (let i = 0; i < n; i++) if (table.get(i) !== model[i]) expect(table.get(i)).toBe(model[i]);
      for (let i = 0; i < n; i++) if (clone.get(i) !== next[i]) expect(clone.get(i)).toBe(next[i]);
      table = clone;
      model = next;
      await collectUntil(() => recycledCount() > 0, 3);
      if (recycledCount() > 0) recycled++;
    }
    // Folds took recycled arrays (else every one was new: the test would not test reuse).
    expect(recycled).toBeGreaterThan(0);
  });
});
