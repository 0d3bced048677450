/**
 * The fused copy of a slab of wide leaves (`setWidesAtDepth` when the root
 * is shared, e.g. a block's balances on a clone of the previous head): the
 * twin of ownedWides.ts for versions the caller does not own. The paths
 * are found breadth first (ownedPaths.ts, any holders), each written
 * position gets a new wide leaf with the slab's words and the root hashed
 * up front (slabWides.ts), and the path levels above are copied, linked
 * and hashed one level per hasher call (copiedPaths.ts).
 *
 * Invariant: the old tree never changes; the returned root is new, hashed
 * and has no holder (the caller attaches it), every other new node's count
 * is its parent link. Returns -1 having changed nothing when the batch
 * does not qualify (no slab roots, unaligned words, a path through
 * something other than branches); if hashing throws, everything made is
 * floated (copiedPaths.ts).
 * @module
 */
import { KIND_WIDE_BASE, type NodeId } from '../nodes/ids.js';
import { findOwnedPaths, levelStart, pendingBesidePaths } from './ownedPaths.js';
import { copied, copyPathsUp, reserveCopied } from './copiedPaths.js';
import { hashedWide, type SlabWides } from './slabWides.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/**
 * The root of `root` with the slab's leaves at `indices` (strictly
 * ascending, checked by the caller) of level `depth`, all paths copied; -1
 * (nothing changed) when the batch does not qualify.
 */
export function writeCopiedWides(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, src: SlabWides): NodeId {
  const words = src.words;
  const roots = src.roots;
  if (words === null || roots === null || !findOwnedPaths(store, root, depth, indices, 0, true)) return -1;
  reserveCopied();
  if (pendingBesidePaths()) store.flush();
  makeLeaves(store, indices.length, src);
  return copyPathsUp(store, depth);
}

/** The written level: a new hashed wide leaf per position (its count set by its parent's link). */
function makeLeaves(store: NodeStore, n: number, src: SlabWides): void {
  const kind = KIND_WIDE_BASE + src.depth - 1;
  const words = src.words!;
  const roots = src.roots!;
  const pageBytes = 32 << src.depth;
  const first = levelStart[0]!;
  const made = copied;
  for (let i = 0; i < n; i++) {
    const offset = src.offsets[i]!;
    const id = hashedWide(store, kind, words, offset >>> 2, roots, ((offset - src.rootsFrom) / pageBytes) * 8);
    made[first + i] = id;
    src.created[i] = id;
  }
}
