/**
 * The fused copy of a batch of new records under a shared root
 * (`setRecordsAtDepth` when the caller does not own the root: a block's
 * written validator pairs on a clone of the previous head, the way a
 * client's state cache runs). The paths are found breadth first
 * (ownedPaths.ts, any holders); each written position gets a new record of
 * the caller's bytes, all of them hashed in one record batch as they are
 * made (hash/recordFlush.ts `hashRecords`); the path levels above are
 * copied, linked and hashed one level per hasher call (copiedPaths.ts).
 *
 * Why: made one by one and written by the walk, each record is listed for
 * the flush and each new branch too (`newBranch` reads both children's
 * rows for their dirty heights), and the flush reads them all again. Here
 * nothing is listed: each new record's bytes are copied once and hashed
 * while in cache, each new branch's row and hash written once.
 *
 * Every position gets a new record: the caller leaves out those whose
 * bytes would not change (types' list commits compare each pair as they
 * encode it), so the old records are never read again here — an epoch's
 * 16384 pairs are long out of cache by then.
 *
 * Invariant: the old tree never changes; the returned root is new, hashed
 * and has no holder (the caller attaches it), every other new node's count
 * is its parent link. Returns -1 having changed nothing when the batch
 * does not qualify (a path through something other than branches); if
 * hashing throws, everything made is floated.
 * @module
 */
import { hashRecords } from '../hash/recordFlush.js';
import { RECORD_BATCH } from '../hash/recordHash.js';
import type { NodeId } from '../nodes/ids.js';
import type { Layout } from '../nodes/recordLayouts.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';
import { recordPool } from '../wide/records.js';
import { copied, copyPathsUp, reserveCopied } from './copiedPaths.js';
import { findOwnedPaths, levelStart, pendingBesidePaths } from './ownedPaths.js';

/**
 * Most positions the fused copy takes; larger batches (an epoch's 16384
 * validator pairs) are walked and left to the flush, which measured faster
 * for them. Measured on the fulu state of 2^20 validators
 * (bench/validator-epoch.ts with `--count`, the two routes alternated round
 * by round in one process, CPU ms of commit + flush, medians): 128 pairs
 * 1.57 against 1.78 walked, 1024: 9.0 against 10.3, 4096: 28.8 against
 * 30.8; 8192: 75 against 63, 16384: 115–131 against 99–106.
 */
export const COPIED_RECORDS_MAX = 4096;

/**
 * The root of `root` with new records of `layout` at `indices` (strictly
 * ascending, checked by the caller) of level `depth`, the i-th made from
 * bytes[offset + i·size ..] (back to back), all paths copied; `created[i]`
 * receives record i. -1 (nothing changed) when the batch does not qualify.
 */
export function writeCopiedRecords(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, layout: Layout, bytes: Uint8Array, offset: number, created: NodeId[]): NodeId {
  const n = indices.length;
  if (!findOwnedPaths(store, root, depth, indices, 0, true)) return -1;
  const first = levelStart[0]!;
  reserveCopied();
  if (pendingBesidePaths()) store.flush();
  makeRecords(store, layout, bytes, offset, n, first, created);
  try {
    for (let at = 0; at < n; at += RECORD_BATCH) hashRecords(store, layout, copied, first + at, first + Math.min(n, at + RECORD_BATCH));
  } catch (error) {
    for (let i = 0; i < n; i++) store.float(copied[first + i]!);
    throw error;
  }
  return copyPathsUp(store, depth);
}

/** The written level: a new record per position, no holder yet (its parent's link counts), on no list, its hash to come. */
function makeRecords(store: NodeStore, layout: Layout, bytes: Uint8Array, offset: number, n: number, first: number, created: NodeId[]): void {
  const pool = recordPool(store, layout);
  const size = layout.size;
  const made = copied;
  for (let i = 0; i < n; i++) {
    const slot = pool.alloc();
    const from = offset + i * size;
    pool.d8[slot >>> pool.shift]!.set(bytes.subarray(from, from + size), (slot & pool.mask) * size);
    pool.setRc(slot, 0);
    pool.setState(slot, 0);
    const id = (slot << 4) | layout.kind;
    made[first + i] = id;
    created[i] = id;
  }
}
