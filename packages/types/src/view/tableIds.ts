/**
 * Element table bases (elementTable.ts) of large lists, recycled once no
 * version can reach them. An epoch's commit of 2^20 validators folds ~16k
 * written pairs into a private copy of the frozen base it inherited: a
 * fresh Int32Array of 4 MiB each time, whose 1 024 pages fault on first
 * write in about one epoch of two (~14 µs each on the benchmark's VM: +14
 * ms; bench/realistic-epochs.ts --parts). The base it replaced is dropped
 * by every version a few blocks later, so its array is taken back here
 * when the garbage collector frees the base holding it, and the next fold
 * of the same length writes into it instead.
 *
 * Invariant: an array is handed out again only after its base — the one
 * object that references it (`tracked`) — was collected, so no version,
 * hint or clone can still read it; whoever takes it overwrites every entry
 * (`takeIds` zeroes it unless told every entry is written).
 * @module
 */

/** Bases shorter than this come from the allocator's recycled heap (no fresh pages to fault). */
export const RECYCLED_MIN = 1 << 16;
/** Arrays kept for reuse at most (an epoch folds one; a fold every ~32 blocks one more): 8 MiB at 2^20 entries. */
const KEPT = 2;

const free: Int32Array[] = [];
const registry = new FinalizationRegistry<Int32Array>((ids) => {
  if (free.length < KEPT) free.push(ids);
});

/** An array of `length` entries, zeroed unless `overwritten` (the caller writes every entry): a recycled one of that length when there is one, else a new one. */
export function takeIds(length: number, overwritten = false): Int32Array {
  if (length >= RECYCLED_MIN) {
    for (let k = free.length - 1; k >= 0; k--) {
      const ids = free[k]!;
      if (ids.length !== length) continue;
      free.splice(k, 1);
      if (!overwritten) ids.fill(0);
      return ids;
    }
  }
  return new Int32Array(length);
}

/** Registers `ids` to be recycled once `base`, its only holder, is collected. `ids` must be referenced by nothing else that outlives `base`. */
export function tracked<B extends { readonly ids: Int32Array }>(base: B): B {
  if (base.ids.length >= RECYCLED_MIN) registry.register(base, base.ids);
  return base;
}

/** @internal Arrays waiting for reuse (tests). */
export function recycledCount(): number {
  return free.length;
}
