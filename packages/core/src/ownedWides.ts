/**
 * The fused in-place write of a slab of wide leaves (`setWidesAtDepth`
 * when the caller owns the root): every path from the root to a written
 * position is owned, every old leaf is a wide leaf of the slab's depth, and
 * the slab's roots were hashed up front (slabWides.ts: dense batches of
 * 64 pages or more, so a small commit's paths still wait for the flush,
 * which commits before a root then share). Then no node is
 * created, no id changes and nothing is unlinked, and the write is done in
 * three passes with no pending lists at all:
 *
 * 1. breadth first down the paths, level by level, checking ownership and
 *    recording each level's path nodes in position order (no change yet:
 *    anything unexpected hands the batch back to the general walk);
 * 2. the leaves take their new words and roots in place;
 * 3. the recorded levels are hashed bottom up, one hasher call per level,
 *    each path node's children's hashes gathered straight from the store.
 *
 * Why: a block's balance commit writes ~1000 pages of a 2^15-page list.
 * The general walk (batchWrite.ts) recurses down each path, lists every
 * path node for the flush at its dirty height (reading both children's
 * rows), and the flush reads every row again; here each path node is read
 * once going down and once going up, and the loads of a level are
 * independent of one another.
 *
 * Invariant: returns false having changed nothing, or true with every leaf
 * written and every path node carrying the hash of its new contents (the
 * root included; the caller lists the root's own parents). Off-path
 * children that were pending are hashed first (a store flush), so every
 * gathered hash is current.
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import { KIND_BRANCH, KIND_WIDE_BASE, KIND_ZERO, type NodeId } from './ids.js';
import { rewriteWide } from './inPlace.js';
import { staging, trimStaging } from './hashing.js';
import { FLAG_PENDING } from './pool.js';
import type { SlabWides } from './slabWides.js';
import type { StoreCore as NodeStore } from './store.js';

/** The path nodes, level after level from the root down; entry k's batch range [lo, hi) and first position. */
let nodes = new Int32Array(1024);
let los = new Int32Array(1024);
let his = new Int32Array(1024);
let bases = new Float64Array(1024);
/** Scratch entries kept between batches (~1.3 MiB); a larger batch's scratch is dropped after it. */
const RETAINED_ENTRIES = 1 << 16;
/** levelStart[d] .. levelEnd[d]: the entries of the path nodes at height d above the written level. */
const levelStart = new Int32Array(65);
const levelEnd = new Int32Array(65);

function ensure(size: number): void {
  if (nodes.length >= size) return;
  const n = Math.max(size, 2 * nodes.length);
  const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
    const b = make(n);
    b.set(a);
    return b;
  };
  nodes = grow(nodes, (k) => new Int32Array(k));
  los = grow(los, (k) => new Int32Array(k));
  his = grow(his, (k) => new Int32Array(k));
  bases = grow(bases, (k) => new Float64Array(k));
}

/** True when `id` waits for the flush to hash it (zero subtrees never do). */
function isPending(store: NodeStore, id: NodeId): boolean {
  if ((id & 15) === KIND_ZERO) return false;
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  return (pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.stAt]! & FLAG_PENDING) !== 0;
}

/** True when `id`'s only holder is its parent's link (so it may change in place). */
function soleLink(store: NodeStore, id: NodeId): boolean {
  if ((id & 15) === KIND_ZERO) return false;
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  return pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.rcAt]! === 1;
}

/**
 * Writes the slab's leaves at `indices` (strictly ascending, checked by the
 * caller) of level `depth` below the owned `root`, in place, and hashes the
 * paths; false (nothing changed) when the batch does not qualify.
 */
export function writeOwnedWides(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, src: SlabWides): boolean {
  const words = src.words;
  const roots = src.roots;
  if (words === null || roots === null || depth === 0 || depth > 64) return false;
  const n = indices.length;
  const kind = KIND_WIDE_BASE + src.depth - 1;
  const branches = store.branches;
  const meta = branches.meta;
  const shift = branches.shift;
  const mask = branches.mask;

  // 1. Down: each level's path nodes, in position order. Level d has at most min(n, 2^(depth-d)) of them.
  let bound = 0;
  for (let d = 0; d <= depth; d++) bound += Math.min(n, 2 ** (depth - d));
  ensure(bound);
  nodes[0] = root;
  los[0] = 0;
  his[0] = n;
  bases[0] = 0;
  levelStart[depth] = 0;
  levelEnd[depth] = 1;
  let pendingSibling = false;
  for (let d = depth; d > 0; d--) {
    const half = d <= 31 ? 1 << (d - 1) : 2 ** (d - 1);
    const end = levelEnd[d]!;
    let w = end;
    for (let k = levelStart[d]!; k < end; k++) {
      const node = nodes[k]!;
      if ((node & 15) !== KIND_BRANCH) return false;
      const slot = node >>> 4;
      const m = meta[slot >>> shift]!;
      const b = (slot & mask) << 2;
      const left = m[b]!;
      const right = m[b + 1]!;
      const lo = los[k]!;
      const hi = his[k]!;
      const base = bases[k]!;
      const mid = base + half;
      let split = lo;
      if (indices[hi - 1]! < mid) split = hi;
      else if (indices[lo]! < mid) {
        let top = hi;
        while (split < top) {
          const c = (split + top) >>> 1;
          if (indices[c]! < mid) split = c + 1;
          else top = c;
        }
      }
      if (split > lo) {
        if (!soleLink(store, left)) return false;
        nodes[w] = left;
        los[w] = lo;
        his[w] = split;
        bases[w] = base;
        w++;
      } else if (isPending(store, left)) pendingSibling = true;
      if (hi > split) {
        if (!soleLink(store, right)) return false;
        nodes[w] = right;
        los[w] = split;
        his[w] = hi;
        bases[w] = mid;
        w++;
      } else if (isPending(store, right)) pendingSibling = true;
    }
    levelStart[d - 1] = end;
    levelEnd[d - 1] = w;
  }
  // The written level: one old leaf per position, each a hashed wide leaf of the slab's depth.
  const first = levelStart[0]!;
  for (let i = 0; i < n; i++) {
    const old = nodes[first + i]!;
    if ((old & 15) !== kind || isPending(store, old)) return false;
  }

  // 2. The leaves, in place, with the roots hashed up front.
  const pageBytes = 32 << src.depth;
  for (let i = 0; i < n; i++) {
    const old = nodes[first + i]!;
    const offset = src.offsets[i]!;
    rewriteWide(store, old, src.depth, words, offset >>> 2, roots, ((offset - src.rootsFrom) / pageBytes) * 8);
    src.created[i] = old;
  }
  if (pendingSibling) store.flush();

  // 3. Up: each level's path nodes hashed from their children's hashes, one call per level.
  const pools = store.pools;
  const hashPages = branches.h32;
  for (let d = 1; d <= depth; d++) {
    const start = levelStart[d]!;
    const count = levelEnd[d]! - start;
    const st8 = staging(store, 64 * count);
    const st = new Int32Array(st8.buffer, 0, 16 * count);
    for (let k = 0, s = 0; k < count; k++) {
      const slot = nodes[start + k]! >>> 4;
      const m = meta[slot >>> shift]!;
      const b = (slot & mask) << 2;
      for (let c = 0; c < 2; c++, s += 8) {
        const child = m[b + c]!;
        const cp = pools[child & 15]!;
        const cs = child >>> 4;
        const h = cp.h32[cs >>> cp.shift]!;
        const o = (cs & cp.mask) << 3;
        st[s] = h[o]!;
        st[s + 1] = h[o + 1]!;
        st[s + 2] = h[o + 2]!;
        st[s + 3] = h[o + 3]!;
        st[s + 4] = h[o + 4]!;
        st[s + 5] = h[o + 5]!;
        st[s + 6] = h[o + 6]!;
        st[s + 7] = h[o + 7]!;
      }
    }
    hashInto(st8.subarray(0, 64 * count), st8.subarray(0, 32 * count));
    for (let k = 0, s = 0; k < count; k++, s += 8) {
      const slot = nodes[start + k]! >>> 4;
      const h = hashPages[slot >>> shift]!;
      const o = (slot & mask) << 3;
      h[o] = st[s]!;
      h[o + 1] = st[s + 1]!;
      h[o + 2] = st[s + 2]!;
      h[o + 3] = st[s + 3]!;
      h[o + 4] = st[s + 4]!;
      h[o + 5] = st[s + 5]!;
      h[o + 6] = st[s + 6]!;
      h[o + 7] = st[s + 7]!;
    }
  }
  trimStaging(store);
  if (nodes.length > RETAINED_ENTRIES) {
    nodes = new Int32Array(1024);
    los = new Int32Array(1024);
    his = new Int32Array(1024);
    bases = new Float64Array(1024);
  }
  return true;
}
