/**
 * The per-page loops of a packed view's load of every page and of its
 * commit's bookkeeping (packed.ts): the committed pages' ids taken from the
 * page table, the dirty-page table filled in page order or cleared.
 *
 * Functions of their own, not loops inside the view's methods: a load of
 * every page runs once per block (4096 pages of participation flags) or
 * once per epoch (2^15 balance pages), so V8 deoptimises its method at the
 * first path it has not seen yet (a fresh slab, a load after single-page
 * loads), and loops kept inline then ran on in the interpreter for the
 * first blocks after a state load; a small function called by every load
 * keeps its optimised code.
 *
 * Invariant: pure functions of their arguments, apart from `idsFromTable`'s
 * scratch, which is only valid until its next call (loads are synchronous).
 * @module
 */

/** Scratch of `idsFromTable` and `pageIdScratch` (grown by doubling). */
let idScratch = new Int32Array(0);

/** A scratch of at least `pages` ids, valid until the next call of this or `idsFromTable`. */
export function pageIdScratch(pages: number): Int32Array {
  if (idScratch.length < pages) idScratch = new Int32Array(Math.max(pages, 2 * idScratch.length));
  return idScratch;
}

/**
 * The node ids of pages [0, pages) from a page table of id + 1 entries (0:
 * not looked up), in a scratch valid until the next call; null when the
 * table lacks one.
 */
export function idsFromTable(table: Int32Array | null, pages: number): Int32Array | null {
  if (table === null || table.length < pages) return null;
  const ids = pageIdScratch(pages);
  for (let p = 0; p < pages; p++) {
    const id = table[p]! - 1;
    if (id < 0) return null;
    ids[p] = id;
  }
  return ids;
}

/** table[p] = p·size + 1 for every p < pages: page p dirty, its copy at p·size (a load of every page). */
export function fillInOrderOffsets(table: Int32Array, pages: number, size: number): void {
  for (let p = 0, at = 1; p < pages; p++, at += size) table[p] = at;
}

/** Clears the entries of the `n` pages `pages` lists (every entry at once when they are most of the table). */
export function clearOffsets(table: Int32Array, pages: Float64Array, n: number): void {
  if (4 * n >= table.length) {
    table.fill(0);
    return;
  }
  for (let k = 0; k < n; k++) {
    const p = pages[k]!;
    if (p < table.length) table[p] = 0;
  }
}
