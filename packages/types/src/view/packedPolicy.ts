/**
 * When a packed view (packed.ts) changes how it works on its pages: loading
 * every page at once instead of one by one (an eighth dirty, a predicted
 * rewrite, a sweep in index order), rebuilding the contents in bulk at
 * commit, sampling pages before a predicted rebuild, and which spare slabs a
 * growing slab takes. Thresholds only, each with how it was chosen or
 * measured; the view's state and the loads themselves stay in packed.ts.
 *
 * Invariant: none of these decides a root — only how fast it is reached
 * (every path commits the same bytes).
 * @module
 */

/**
 * A commit rebuilds the contents from pages (packed.ts `#flushBulk`) when at least
 * BULK_NUMERATOR / BULK_DENOMINATOR of its pages were written and it has at
 * least BULK_MIN_PAGES pages; the unchanged rest are copied and rehashed.
 */
export const BULK_MIN_PAGES = 64;
export const BULK_NUMERATOR = 3;
export const BULK_DENOMINATOR = 4;

/**
 * A write to a list or vector of LOAD_ALL_MIN_PAGES pages or more that finds
 * at least 1/LOAD_ALL_DENOMINATOR of them dirty loads the rest at once
 * (packed.ts `#loadAllPages`). A block's 1024 balances dirty 1/32 of 2^15 pages and
 * stay below it; its participation flags reach it after ~550 of 2^15 writes.
 */
export const LOAD_ALL_MIN_PAGES = 256;
export const LOAD_ALL_MIN_DIRTY = 32;
export const LOAD_ALL_DENOMINATOR = 8;
/**
 * A write that finds the dirty pages to be a sweep — at least SWEEP_MIN_PAGES
 * of them, dirtied in increasing page order from near the start, at least
 * half of the pages up to the one written — loads the rest at once, as the
 * eighth-dirty rule above would much later: an epoch rewriting every
 * balance and inactivity score in index order otherwise loaded its first
 * 4096 pages of each list one by one (~0.5 µs a page against ~0.08 µs a page
 * in the bulk load, measured). A block's 1024 balances at random indices
 * (sorted or not) are never such a run: 1024 of 2^15 pages are too sparse.
 */
export const SWEEP_MIN_PAGES = 64;
/**
 * A commit after a predicted load of all pages samples PREDICT_SAMPLES pages
 * evenly, every PREDICT_SAMPLE_STRIDE-th at the closest (packed.ts
 * `#mostPagesChanged`; 32 of LOAD_ALL_MIN_PAGES). Each sample reads its
 * committed page from the pool (a cache miss): every 8th of an epoch's 2^15
 * balance pages cost ~2 ms of its commit (measured, paired A/B of the
 * scratch epoch loop); 256 judge a three-quarter share within a few percent.
 */
export const PREDICT_SAMPLE_STRIDE = 8;
export const PREDICT_SAMPLES = 256;

/**
 * A slab growing to n bytes takes a spare of at most max(GROW_SPARE_MAX·n,
 * GROW_SPARE_ANY) bytes (packedSlabs.ts `takeSlab`): the epoch's 8 MiB ones
 * stay for its loads of every page, while a block's balances (growing to
 * 256 KiB) still reuse the block's smaller spares (allocating each step
 * afresh cost ~0.1 µs of a first-touch set, measured).
 */
export const GROW_SPARE_MAX = 8;
export const GROW_SPARE_ANY = 1 << 20;

/**
 * The largest spare a slab growing to `size` bytes takes: max(GROW_SPARE_MAX·size,
 * GROW_SPARE_ANY), and less than `loadAllBytes` when the view may load all its
 * pages, a slab of that size (0: it never does). A block's participation flags
 * grow their slab page by page until an eighth of their 4096 pages are dirty,
 * then load every page: the growth took the 1 MiB spare that load needs, so
 * the first block after a state load allocated and faulted in a fresh 2 MiB
 * pair (slab and twin) for it.
 */
export function growSpareBound(size: number, loadAllBytes: number): number {
  const most = Math.max(size * GROW_SPARE_MAX, GROW_SPARE_ANY);
  return loadAllBytes > 0 ? Math.min(most, loadAllBytes - 1) : most;
}

/** Whether a write to clean page p, with `dirty` pages dirtied so far all in ascending order (`ascending`), the highest `lastDirtied`, continues a sweep (SWEEP_MIN_PAGES). */
export function isSweep(ascending: boolean, dirty: number, p: number, lastDirtied: number): boolean {
  return ascending && dirty >= SWEEP_MIN_PAGES && p > lastDirtied && 2 * dirty >= p;
}
