/**
 * The fused copy of a batch of new records under a shared root
 * (`setRecordsAtDepth` when the caller does not own the root: a block's
 * written validator pairs on a clone of the previous head, the way a
 * client's state cache runs). The paths and the new branches are
 * copiedPaths.ts's; here each written position gets a new record of the
 * caller's bytes, all of them hashed in record batches spread from the
 * caller's bytes (hash/recordFlush.ts `hashRecordRun`: read in order, not
 * from the new records' slots scattered over the pool), and each root goes
 * into its record's slot and its parent's message at once.
 *
 * Why: made one by one and written by the walk, each record is listed for
 * the flush and each new branch too (`newBranch` reads both children's
 * rows for their dirty heights), and the flush reads them all again. Here
 * nothing is listed.
 *
 * Any batch of 64 positions or more takes it, an epoch's 16384 pairs
 * included: on the fulu state of 2^20 validators (bench/validator-epoch.ts
 * `--count 16384`, CPU ms of the validators' commit + flush, medians of
 * rounds 3–10, two alternated process pairs, AMD EPYC, load ~3.5), 90.3 and
 * 83.3 against 100.2 and 93.5 walked and flushed.
 *
 * Every position gets a new record: the caller leaves out those whose
 * bytes would not change (types' list commits compare each pair as they
 * encode it), so the old records are never read here.
 *
 * Invariant: the old tree never changes; the returned root is new, hashed
 * and has no holder (the caller attaches it), every other new node's count
 * is its parent's link. Returns -1 having changed nothing when the batch
 * does not qualify (a path through something other than branches); throws
 * `STORE_FULL` having changed nothing when a pool cannot grow; if hashing
 * throws, the new root is floated, and the next sweep frees everything made.
 * @module
 */
import { hashRecordRun } from '../hash/recordFlush.js';
import { RECORD_BATCH } from '../hash/recordHash.js';
import type { NodeId } from '../nodes/ids.js';
import type { Layout } from '../nodes/recordLayouts.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';
import { recordPool } from '../wide/records.js';
import { abandonCopiedPaths, copy8, finishCopiedPaths, leafMessage, levelOneMessages, made, startCopiedPaths, writtenFrom } from './copiedPaths.js';

/**
 * The root of `root` with new records of `layout` at `indices` (strictly
 * ascending, checked by the caller) of level `depth`, the i-th made from
 * bytes[offset + i·size ..] (back to back), all paths copied; `created[i]`
 * receives record i. -1 (nothing changed) when the batch does not qualify.
 */
export function writeCopiedRecords(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, layout: Layout, bytes: Uint8Array, offset: number, created: NodeId[]): NodeId {
  const n = indices.length;
  if (!startCopiedPaths(store, root, depth, indices, recordPool(store, layout))) return -1;
  const first = writtenFrom();
  makeRecords(store, layout, bytes, offset, n, first, created);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    for (let at = 0; at < n; at += RECORD_BATCH) {
      const count = Math.min(n - at, RECORD_BATCH);
      placeRoots(store, layout, hashRecordRun(layout, bytes, view, offset + at * layout.size, count), at, count, first);
    }
  } catch (error) {
    abandonCopiedPaths(store);
    throw error;
  }
  return finishCopiedPaths(store, depth);
}

/** The written level: a new record per position in the slot taken for it, held by its parent's link, its hash to come. */
function makeRecords(store: NodeStore, layout: Layout, bytes: Uint8Array, offset: number, n: number, first: number, created: NodeId[]): void {
  const pool = recordPool(store, layout);
  const size = layout.size;
  const shift = pool.shift;
  const mask = pool.mask;
  for (let i = 0; i < n; i++) {
    const id = made[first + i]!;
    const slot = id >>> 4;
    const from = offset + i * size;
    pool.d8[slot >>> shift]!.set(bytes.subarray(from, from + size), (slot & mask) * size);
    const m = pool.meta[slot >>> shift]!;
    m[(slot & mask) << 1] = 1;
    m[((slot & mask) << 1) + 1] = 0;
    created[i] = id;
  }
}

/** Roots of written positions [at, at + count) (root k at roots[8k]) into their records' slots and their parents' messages in level 1's messages. */
function placeRoots(store: NodeStore, layout: Layout, roots: Int32Array, at: number, count: number, first: number): void {
  const pool = store.pools[layout.kind]!;
  const shift = pool.shift;
  const mask = pool.mask;
  const st = levelOneMessages();
  for (let k = 0; k < count; k++) {
    const slot = made[first + at + k]! >>> 4;
    copy8(roots, 8 * k, pool.h32[slot >>> shift]!, (slot & mask) << 3, st, leafMessage(at + k));
  }
}
