/**
 * The dirty pages of a packed view (packed.ts) in the order they were first
 * written: each page's index, the slab offset of its working copy, and the
 * slab offset of its first write (where a commit looks first for a changed
 * byte). Typed arrays grown by doubling, not arrays pushed to: a load of
 * every page (2^15 balance pages) rebuilt three arrays by 2^15 pushes each,
 * ~1 ms of the ~2 ms load (measured, scratch loop over profile-realistic's
 * state); here it fills them in one pass.
 *
 * Invariant: entries [0, length) are live; `pages` holds distinct indices.
 * @module
 */
export class DirtyOrder {
  /** Page indices (doubles: they may pass 2^31). */
  pages = new Float64Array(16);
  /** Slab byte offset of each page's working copy. */
  at = new Int32Array(16);
  /** Slab byte offset of each page's first write. */
  first = new Int32Array(16);
  length = 0;

  push(p: number, at: number, first: number): void {
    const k = this.length;
    if (k === this.pages.length) this.#grow(2 * k);
    this.pages[k] = p;
    this.at[k] = at;
    this.first[k] = first;
    this.length = k + 1;
  }

  /**
   * Lists every page of [0, count) in order, page p's copy at p·size (a load
   * of every page). The pages listed so far keep their first writes; their
   * copies are moved from `from` (words at their slab offsets) to `to` at
   * p·size. Every other page's first write is its start.
   */
  fillInOrder(count: number, size: number, from: Int32Array, to: Int32Array): void {
    const n = this.length;
    // The listed pages (a few hundred at most: single-page loads before the load of every page) saved first: the fill overwrites them.
    const moved = n > 0 ? { pages: this.pages.slice(0, n), at: this.at.slice(0, n), first: this.first.slice(0, n) } : null;
    if (count > this.pages.length) this.#grow(count);
    const { pages, at, first } = this;
    for (let p = 0, o = 0; p < count; p++, o += size) {
      pages[p] = p;
      at[p] = o;
      first[p] = o;
    }
    this.length = count;
    if (moved === null) return;
    const words = size >>> 2;
    for (let k = 0; k < n; k++) {
      const p = moved.pages[k]!;
      const a = moved.at[k]!;
      const w = a >>> 2;
      const t = (p * size) >>> 2;
      for (let i = 0; i < words; i++) to[t + i] = from[w + i]!;
      first[p] = p * size + (moved.first[k]! - a);
    }
  }

  clear(): void {
    this.length = 0;
  }

  #grow(capacity: number): void {
    const pages = new Float64Array(capacity);
    const at = new Int32Array(capacity);
    const first = new Int32Array(capacity);
    pages.set(this.pages.subarray(0, this.length));
    at.set(this.at.subarray(0, this.length));
    first.set(this.first.subarray(0, this.length));
    this.pages = pages;
    this.at = at;
    this.first = first;
  }
}
