/**
 * The scratch of a composite list's commit of half views (composite.ts
 * `_flush`, `#commitPairs`), kept from commit to commit: the index arrays
 * (which written children are half views, their element indices, the radix
 * sort's two buffers, the pairs written) and the slab of the pairs' new
 * bytes. An epoch's commit of 2^20 validators fills each with ~16k
 * entries; made afresh per commit (growing JS arrays and new Int32Arrays)
 * they cost ~140 page faults of fresh memory, ~2 ms on the benchmark's VM
 * (bench/realistic-epochs.ts --parts with fault probes around the commit's
 * steps), so one set is kept and lent to one commit at a time.
 *
 * Invariant: a scratch is held by at most one commit: `borrowScratch`
 * hands the kept one out and forgets it until `returnScratch` (the slab:
 * `pairSlab` until `releaseSlab`), so a commit
 * nested inside another (a child list committing itself) or one left by a
 * throw gets a fresh set; whoever borrows writes an entry before reading
 * it (`count`-bounded), and holds no view in it, so nothing outlives a
 * commit through it.
 * @module
 */

/** Entries kept after a commit: an epoch's 16k fit; a larger set goes (4 arrays of 4 bytes an entry: 1 MiB). */
const KEPT_ENTRIES = 1 << 16;

export class CommitScratch {
  /** Element index of each half view to commit (below 2^32, as the pair index i >>> 1 assumes). */
  halfAt = new Uint32Array(256);
  /** Its position in the commit's list of written children. */
  halfK = new Int32Array(256);
  /** The radix sort's buffers (packedPages.ts `sortedPositions`). */
  sortA = new Int32Array(256);
  sortB = new Int32Array(256);
  /** Pair indices whose new bytes the commit writes, ascending. */
  pairAt = new Uint32Array(256);
  /** The record kind of the pairs in `pairAt`. */
  kind = -1;

  /** Makes room for `n` entries in each array (contents not kept). */
  reserve(n: number): void {
    if (this.halfAt.length >= n) return;
    const size = Math.max(n, 2 * this.halfAt.length);
    this.halfAt = new Uint32Array(size);
    this.halfK = new Int32Array(size);
    this.sortA = new Int32Array(size);
    this.sortB = new Int32Array(size);
    this.pairAt = new Uint32Array(size);
  }
}

let kept: CommitScratch | null = new CommitScratch();

/** The kept scratch when no commit holds it, else a fresh one. */
export function borrowScratch(): CommitScratch {
  const s = kept ?? new CommitScratch();
  kept = null;
  return s;
}

/** Gives a borrowed scratch back (a very large one is dropped); it must not be used afterwards. */
export function returnScratch(s: CommitScratch): void {
  if (s.halfAt.length <= KEPT_ENTRIES) kept = s;
}

/**
 * The pair bytes of a commit, shared by all list views (one commit at a
 * time uses it: composite.ts `#commitPairs` fills it, the commit hands it to core and
 * lets it go: `releaseSlab`); a block's 128 Validator pairs take 31 KB, an epoch's ~16k
 * pairs 3.9 MB, kept for the next epoch (allocating it each epoch cost
 * ~5 ms of its commit: bench/validator-epoch.ts profile). A larger one is
 * not kept after its commit.
 */
const SLAB_KEPT = 1 << 22;
let slab = new Uint8Array(1 << 16);
let slabView = new DataView(slab.buffer);
let slabBusy = false;

/** A buffer of at least `bytes` bytes for a commit's pairs: the shared slab when free (grown if needed), else a fresh one. */
export function pairSlab(bytes: number): Uint8Array {
  if (slabBusy) return new Uint8Array(bytes);
  slabBusy = true;
  if (slab.length < bytes) {
    slab = new Uint8Array(Math.max(bytes, Math.min(2 * slab.length, SLAB_KEPT)));
    slabView = new DataView(slab.buffer);
  }
  return slab;
}

/** Gives the shared slab back after a commit's write (a large one is dropped). */
export function releaseSlab(bytes: Uint8Array): void {
  if (bytes !== slab) return;
  slabBusy = false;
  if (slab.length > SLAB_KEPT) {
    slab = new Uint8Array(1 << 16);
    slabView = new DataView(slab.buffer);
  }
}

/** A DataView over a buffer `pairSlab` gave (the shared slab's is kept with it). */
export function pairDataView(bytes: Uint8Array): DataView {
  return bytes === slab ? slabView : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
