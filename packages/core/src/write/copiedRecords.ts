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
 * Invariant: the old tree never changes; the returned root is new, hashed
 * and has no holder (the caller attaches it), every other new node's count
 * is its parent link. Returns -1 having changed nothing when the batch
 * does not qualify (a path through something other than branches, or a
 * record whose bytes are the ones already at its position: the walk keeps
 * the old node there); if hashing throws, everything made is floated.
 * @module
 */
import { hashRecords } from '../hash/recordFlush.js';
import { RECORD_BATCH } from '../hash/recordHash.js';
import type { NodeId } from '../nodes/ids.js';
import type { Layout } from '../nodes/recordLayouts.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';
import { recordPool } from '../wide/records.js';
import { copied, copyPathsUp, reserveCopied } from './copiedPaths.js';
import { findOwnedPaths, levelStart, pathNodes, pendingBesidePaths } from './ownedPaths.js';

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
  for (let i = 0; i < n; i++) if (sameRecord(store, pathNodes[first + i]!, layout, bytes, offset + i * layout.size)) return -1;
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

/** Whether `old` is a record of `layout` holding bytes[from, from + size). */
export function sameRecord(store: NodeStore, old: NodeId, layout: Layout, bytes: Uint8Array, from: number): boolean {
  if ((old & 15) !== layout.kind) return false;
  const pool = store.pools[layout.kind]!;
  const slot = old >>> 4;
  const page = pool.d8[slot >>> pool.shift]!;
  const size = layout.size;
  const o = (slot & pool.mask) * size;
  for (let b = 0; b < size; b++) if (page[o + b] !== bytes[from + b]) return false;
  return true;
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
