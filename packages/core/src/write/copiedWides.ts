/**
 * The fused copy of a slab of wide leaves (`setWidesAtDepth` when the root
 * is shared, e.g. a block's balances on a clone of the previous head): the
 * twin of ownedWides.ts for versions the caller does not own. The paths
 * are found breadth first (ownedPaths.ts, any holders), then built bottom
 * up one level at a time: each written position gets a new wide leaf with
 * the slab's words and the root hashed up front (slabWides.ts), each path
 * node a new branch over its new children and its old off-path ones, and
 * each level is hashed by one hasher call as soon as it is linked.
 *
 * Why: the walk (batchWrite.ts) makes each new branch with `newBranch`,
 * which reads both children's rows for their dirty heights and lists the
 * branch for the flush, and the flush reads every new row again and
 * gathers from slots scattered by the free list. Here an off-path child's
 * row is touched once (its count), each new node's row and hash are
 * written once, and nothing is listed.
 *
 * Invariant: the old tree never changes (old path nodes are only read);
 * the returned root is new, hashed and has no holder (the caller attaches
 * it), every other new node's count is its parent link, and every off-path
 * child gained one link. Returns -1 having changed nothing when the batch
 * does not qualify (no slab roots, unaligned words, a path through
 * something other than branches); if hashing throws, the level made last
 * is floated, so the next sweep frees everything made.
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import { staging, trimStaging } from '../hash/flush.js';
import { KIND_BRANCH, KIND_WIDE_BASE, KIND_ZERO, type NodeId } from '../nodes/ids.js';
import { findOwnedPaths, gatherHash, scatterHashes, levelEnd, levelStart, pathBases, pathLefts, pathRights, pendingBesidePaths } from './ownedPaths.js';
import { hashedWide, type SlabWides } from './slabWides.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/** New node of each path entry (indexed like ownedPaths' entries); grown to the largest batch. */
let made = new Int32Array(1024);

/**
 * The root of `root` with the slab's leaves at `indices` (strictly
 * ascending, checked by the caller) of level `depth`, all paths copied; -1
 * (nothing changed) when the batch does not qualify.
 */
export function writeCopiedWides(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, src: SlabWides): NodeId {
  const words = src.words;
  const roots = src.roots;
  if (words === null || roots === null || !findOwnedPaths(store, root, depth, indices, 0, true)) return -1;
  const total = levelEnd[0]!;
  if (made.length < total) made = new Int32Array(Math.max(total, 2 * made.length));
  if (pendingBesidePaths()) store.flush();
  makeLeaves(store, indices.length, src);
  for (let d = 1; d <= depth; d++) {
    linkLevel(store, d);
    try {
      hashLevel(store, d);
    } catch (error) {
      for (let k = levelStart[d]!; k < levelEnd[d]!; k++) store.float(made[k]!);
      throw error;
    }
  }
  trimStaging(store);
  return made[0]!;
}

/** The written level: a new hashed wide leaf per position (its count set by its parent's link). */
function makeLeaves(store: NodeStore, n: number, src: SlabWides): void {
  const kind = KIND_WIDE_BASE + src.depth - 1;
  const words = src.words!;
  const roots = src.roots!;
  const pageBytes = 32 << src.depth;
  const first = levelStart[0]!;
  for (let i = 0; i < n; i++) {
    const offset = src.offsets[i]!;
    const id = hashedWide(store, kind, words, offset >>> 2, roots, ((offset - src.rootsFrom) / pageBytes) * 8);
    made[first + i] = id;
    src.created[i] = id;
  }
}

/** Adds a link to a new node made one level down (its row was just written). */
function linkNew(store: NodeStore, id: NodeId): void {
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.rcAt]!++;
}

/**
 * Makes level d's new branches: path entry k's children are the new nodes
 * of the entries below it on the paths (left child: same first position,
 * right: half a subtree on) and its old children elsewhere, which gain a link.
 */
function linkLevel(store: NodeStore, d: number): void {
  const branches = store.branches;
  const half = d <= 31 ? 1 << (d - 1) : 2 ** (d - 1);
  let j = levelStart[d - 1]!;
  const jEnd = levelEnd[d - 1]!;
  for (let k = levelStart[d]!, end = levelEnd[d]!; k < end; k++) {
    const base = pathBases[k]!;
    let left = pathLefts[k]!;
    let right = pathRights[k]!;
    if (j < jEnd && pathBases[j] === base) {
      left = made[j++]!;
      linkNew(store, left);
    } else if ((left & 15) !== KIND_ZERO) store.retainUnchecked(left);
    if (j < jEnd && pathBases[j] === base + half) {
      right = made[j++]!;
      linkNew(store, right);
    } else if ((right & 15) !== KIND_ZERO) store.retainUnchecked(right);
    const slot = branches.alloc();
    const m = branches.meta[slot >>> branches.shift]!;
    const b = (slot & branches.mask) << 2;
    m[b] = left;
    m[b + 1] = right;
    m[b + 2] = 0;
    m[b + 3] = 0;
    made[k] = (slot << 4) | KIND_BRANCH;
  }
}

/** Hashes level d's new branches: children's hashes gathered, one hasher call, scattered into the new slots. */
function hashLevel(store: NodeStore, d: number): void {
  const start = levelStart[d]!;
  const count = levelEnd[d]! - start;
  const st8 = staging(store, 64 * count);
  const st = new Int32Array(st8.buffer, 0, 16 * count);
  const branches = store.branches;
  const pools = store.pools;
  for (let k = 0, s = 0; k < count; k++, s += 16) {
    const slot = made[start + k]! >>> 4;
    const m = branches.meta[slot >>> branches.shift]!;
    const b = (slot & branches.mask) << 2;
    gatherHash(pools, m[b]!, st, s);
    gatherHash(pools, m[b + 1]!, st, s + 8);
  }
  hashInto(st8.subarray(0, 64 * count), st8.subarray(0, 32 * count));
  scatterHashes(branches, made, start, count, st);
}
