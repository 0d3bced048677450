/**
 * The all-zero pages of a run of new wide leaves, found so that a bulk
 * build (pages.ts `hashPages`) does not hash them: the root of a page of
 * zero chunks is the zero hash of its inner depth, known in advance. An
 * epoch's new participation list is zero throughout (4096 pages: ~28 000
 * page-fold messages a build), and a list of mostly zero values (mainnet's
 * inactivity scores) has long stretches of zero pages.
 *
 * Only stretches of at least ZERO_STRETCH_MIN zero pages are left out: the
 * pages between them are hashed as one stretch straight from the pool, in
 * one fold per level, so a lone zero page among others (the realistic
 * benchmark's scores: ~13 % of pages zero, at random) is hashed with them
 * rather than splitting the call. Only every PROBE-th page is looked at
 * first, and only a page whose first word is zero is read further, so a
 * run with no zero page (balances) costs one word compare per PROBE pages.
 *
 * Invariant: a page reported zero has only zero bytes.
 * @module
 */

/**
 * Fewest zero pages in a row left out of a run's hashing: below it, two
 * hasher calls instead of one cost more than the ~7 messages a page of 8
 * chunks saves. Measured: packing every non-zero page of a run into a
 * scratch to hash the rest in one call made an epoch's scores commit (2^15
 * pages, 13 % zero at random) 9.6 -> ~15 ms CPU (realistic-epochs --parts).
 */
export const ZERO_STRETCH_MIN = 16;

/** Whether the page of `pageWords` words at word `at` of `words` is all zero. */
export function zeroPage(words: Int32Array, at: number, pageWords: number): boolean {
  if (words[at] !== 0) return false;
  for (let w = 1; w < pageWords; w++) if (words[at + w] !== 0) return false;
  return true;
}

/**
 * Pages between probes: every stretch of ZERO_STRETCH_MIN zero pages holds a
 * probed page, so only those are read at first (a run of scores, whose
 * pages are mostly zero in their first words, was read word by word up to
 * its first nonzero one on every page: ~1 ms an epoch for nothing when its
 * zero pages lie alone).
 */
const PROBE = ZERO_STRETCH_MIN >>> 1;

/**
 * The stretches of the `len` pages at word `at` of `words` to hash, as
 * [start, end) pairs into `out` (cleared first): every page but those in
 * stretches of at least ZERO_STRETCH_MIN zero pages (or all of the run,
 * when the whole run is zero). Returns the number of pages left out.
 */
export function pagesToHash(words: Int32Array, at: number, len: number, pageWords: number, out: number[]): number {
  out.length = 0;
  let from = 0;
  let skipped = 0;
  // Pages before `seen` were looked at around an earlier probe.
  let seen = 0;
  for (let p = 0; p < len; p += PROBE) {
    if (p < seen || !zeroPage(words, at + p * pageWords, pageWords)) continue;
    let i = p;
    while (i > seen && zeroPage(words, at + (i - 1) * pageWords, pageWords)) i--;
    let j = p + 1;
    while (j < len && zeroPage(words, at + j * pageWords, pageWords)) j++;
    seen = j;
    if (j - i >= ZERO_STRETCH_MIN || j - i === len) {
      if (i > from) out.push(from, i);
      skipped += j - i;
      from = j;
    }
  }
  if (from < len) out.push(from, len);
  return skipped;
}
