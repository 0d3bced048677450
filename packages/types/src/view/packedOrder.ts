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

  /** Every page of [0, count) in order, page p's copy at p·size, its first write at firsts[p]. */
  fillInOrder(count: number, size: number, firsts: Int32Array): void {
    if (count > this.pages.length) this.#grow(count);
    const { pages, at, first } = this;
    for (let p = 0; p < count; p++) {
      pages[p] = p;
      at[p] = p * size;
      first[p] = firsts[p]!;
    }
    this.length = count;
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
