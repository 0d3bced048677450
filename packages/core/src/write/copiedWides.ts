/**
 * The fused copy of a slab of wide leaves (`setWidesAtDepth` when the root
 * is shared, e.g. a block's balances on a clone of the previous head): the
 * twin of ownedWides.ts for versions the caller does not own. The paths and
 * the new branches are copiedPaths.ts's; here each written position gets a
 * new wide leaf with the slab's words and the root hashed up front
 * (slabWides.ts), which also goes into its parent's message.
 *
 * Invariant: the old tree never changes; the returned root is new, hashed
 * and has no holder (the caller attaches it), every other new node's count
 * is its parent's link, and every off-path child gained one link. Returns
 * -1 having changed nothing when the batch does not qualify (no slab roots,
 * unaligned words, a path through something other than branches); throws
 * `STORE_FULL` having changed nothing when a pool cannot grow; if hashing
 * throws, the new root is floated, and the next sweep frees everything made.
 * @module
 */
import { KIND_WIDE_BASE, type NodeId } from '../nodes/ids.js';
import { copy8, finishCopiedPaths, leafMessage, levelOneMessages, made, startCopiedPaths, writtenFrom } from './copiedPaths.js';
import type { SlabWides } from './slabWides.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/**
 * The root of `root` with the slab's leaves at `indices` (strictly
 * ascending, checked by the caller) of level `depth`, all paths copied; -1
 * (nothing changed) when the batch does not qualify.
 */
export function writeCopiedWides(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, src: SlabWides): NodeId {
  if (src.words === null || src.roots === null) return -1;
  if (!startCopiedPaths(store, root, depth, indices, store.pools[KIND_WIDE_BASE + src.depth - 1]!)) return -1;
  makeLeaves(store, src);
  return finishCopiedPaths(store, depth);
}

/**
 * The written positions' new wide leaves: the slab's words, the root
 * hashed up front (also copied into level 1's messages), held by their
 * parent's link.
 */
function makeLeaves(store: NodeStore, src: SlabWides): void {
  const pool = store.pools[KIND_WIDE_BASE + src.depth - 1]!;
  const words = src.words!;
  const roots = src.roots!;
  const offsets = src.offsets;
  const created = src.created;
  const pageBytes = 32 << src.depth;
  const rootsFrom = src.rootsFrom;
  const n32 = pool.dataBytes >>> 2;
  const shift = pool.shift;
  const mask = pool.mask;
  const first = writtenFrom();
  const st = levelOneMessages();
  for (let i = 0, n = created.length; i < n; i++) {
    const id = made[first + i]!;
    const slot = id >>> 4;
    const page = slot >>> shift;
    const off = slot & mask;
    const offset = offsets[i]!;
    const from = offset >>> 2;
    const d32 = pool.d32[page]!;
    for (let w = 0, o = off * n32; w < n32; w++) d32[o + w] = words[from + w]!;
    const r = ((offset - rootsFrom) / pageBytes) * 8;
    copy8(roots, r, pool.h32[page]!, off << 3, st, leafMessage(i));
    const m = pool.meta[page]!;
    m[off << 1] = 1;
    m[(off << 1) + 1] = 0;
    created[i] = id;
  }
}
