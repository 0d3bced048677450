/**
 * The fused in-place write of a slab of wide leaves (`setWidesAtDepth`
 * when the caller owns the root): every path from the root to a written
 * position is owned, every old leaf is a hashed wide leaf of the slab's
 * depth, and the slab's roots were hashed up front (slabWides.ts: dense
 * batches of 64 pages or more, so a small commit's paths still wait for
 * the flush, which commits before a root then share). Then no node is
 * created, no id changes and nothing is unlinked: the paths are found
 * (ownedPaths.ts), the leaves take their new words and roots in place, and
 * the paths are hashed bottom up, with no pending lists at all.
 *
 * Invariant: returns false having changed nothing, or true with every leaf
 * written and every path node carrying the hash of its new contents (the
 * root included; the caller lists the root's own parents). If hashing the
 * paths throws, they are listed for the flush instead.
 * @module
 */
import { KIND_WIDE_BASE, type NodeId } from '../nodes/ids.js';
import { repairInPlace, rewriteWide } from './inPlace.js';
import { findOwnedPaths, hashOwnedPaths, isPending, levelStart, pathNodes } from './ownedPaths.js';
import type { SlabWides } from './slabWides.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/**
 * Writes the slab's leaves at `indices` (strictly ascending, checked by the
 * caller) of level `depth` below the owned `root`, in place, and hashes the
 * paths; false (nothing changed) when the batch does not qualify.
 */
export function writeOwnedWides(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, src: SlabWides): boolean {
  const words = src.words;
  const roots = src.roots;
  if (words === null || roots === null || !findOwnedPaths(store, root, depth, indices, 0)) return false;
  const n = indices.length;
  const kind = KIND_WIDE_BASE + src.depth - 1;
  // The written level: one old leaf per position, each a hashed wide leaf of the slab's depth.
  const first = levelStart[0]!;
  for (let i = 0; i < n; i++) {
    const old = pathNodes[first + i]!;
    if ((old & 15) !== kind || isPending(store, old)) return false;
  }
  const pageBytes = 32 << src.depth;
  for (let i = 0; i < n; i++) {
    const old = pathNodes[first + i]!;
    const offset = src.offsets[i]!;
    rewriteWide(store, old, src.depth, words, offset >>> 2, roots, ((offset - src.rootsFrom) / pageBytes) * 8);
    src.created[i] = old;
  }
  try {
    hashOwnedPaths(store, depth, 0);
  } catch (error) {
    // A hasher failure must not leave written paths with old hashes and unlisted: list them for the flush.
    repairInPlace(store, root, depth, indices, 0, n, 0, true);
    throw error;
  }
  return true;
}
