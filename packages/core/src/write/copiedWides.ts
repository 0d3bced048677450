/**
 * The fused copy of a slab of wide leaves (`setWidesAtDepth` when the root
 * is shared, e.g. a block's balances on a clone of the previous head): the
 * twin of ownedWides.ts for versions the caller does not own. The paths
 * are found breadth first (ownedPaths.ts, any holders); then every new
 * node's slot is taken at once, each path node's children are known (the
 * new node of the entry below it on a path, else its old child, which
 * gains a link), each written position gets a new wide leaf with the slab's
 * words and the root hashed up front (slabWides.ts), every new branch's row
 * is written, and the branches are hashed bottom up, one hasher call per
 * level.
 *
 * Why: on a large state nearly every row and hash these passes touch is a
 * cache (and TLB) miss — the old path nodes' rows, the off-path children's
 * counts and hashes, the free slots the new nodes take — and the cost is
 * how many there are and how well their loads overlap. So each kind of
 * miss has its own loop over all the nodes that need it, with no branch on
 * data beside the loads (a mispredicted branch throws away the loads issued
 * after it), and each line is touched once: a new child's count is written
 * with its row (1: its parent's link) instead of incremented later, a new
 * branch's row is written once with both children, and a level's messages
 * are assembled in one of two small buffers used in turn (the level's and
 * its parents'), which stay in cache, instead of in a staging the size of
 * the whole batch. The walk (batchWrite.ts) would instead read both
 * children's rows of every new branch for its dirty height, list it, and
 * read it again in the flush.
 *
 * Invariant: the old tree never changes (old path nodes are only read);
 * the returned root is new, hashed and has no holder (the caller attaches
 * it), every other new node's count is its parent's link, and every
 * off-path child gained one link. Returns -1 having changed nothing when
 * the batch does not qualify (no slab roots, unaligned words, a path
 * through something other than branches); throws `STORE_FULL` having
 * changed nothing when a pool cannot grow (every slot taken given back);
 * if hashing throws, the new root is floated, and the next sweep frees
 * everything made.
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import { staging, trimStaging } from '../hash/flush.js';
import { KIND_WIDE_BASE, KIND_ZERO, type NodeId } from '../nodes/ids.js';
import { besideCount, besideHalves, besideIds, besideStart, findOwnedPaths, levelEnd, levelStart, pathLefts, pathRights, pathUps, pendingBesidePaths } from './ownedPaths.js';
import type { SlabWides } from './slabWides.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/** New node of each path entry (indexed like ownedPaths' entries); grown to the largest batch. */
let made = new Int32Array(1024);

/**
 * The root of `root` with the slab's leaves at `indices` (strictly
 * ascending, checked by the caller) of level `depth`, all paths copied; -1
 * (nothing changed) when the batch does not qualify.
 */
export function writeCopiedWides(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, src: SlabWides): NodeId {
  if (src.words === null || src.roots === null || !findOwnedPaths(store, root, depth, indices, 0, true)) return -1;
  if (pendingBesidePaths()) store.flush();
  // Entries [0, branches) are the path nodes, level by level from the root; [branches, total) the written positions.
  const branches = levelStart[0]!;
  const total = levelEnd[0]!;
  if (made.length < total) made = new Int32Array(Math.max(total, 2 * made.length));
  const wide = store.pools[KIND_WIDE_BASE + src.depth - 1]!;
  wide.allocIds(made, branches, total);
  try {
    store.branches.allocIds(made, 0, branches);
  } catch (error) {
    wide.giveBack(made, branches, total);
    throw error;
  }
  // Every new node has its slot: nothing below throws but the hasher.
  linkNew(total);
  linkBesides(store);
  // Two message buffers of the widest level, used in turn: a level's messages in one, its parents' in the other.
  let widest = 0;
  for (let d = 1; d <= depth; d++) widest = Math.max(widest, levelEnd[d]! - levelStart[d]!);
  const st8 = staging(store, 128 * widest);
  const st = new Int32Array(st8.buffer, 0, 32 * widest);
  const other = 16 * widest;
  makeLeaves(store, src, branches, st, 0);
  writeRows(store, branches);
  try {
    for (let d = 1, at = 0; d <= depth; d++, at = other - at) hashLevel(store, d, st8, st, at, other - at);
  } catch (error) {
    // Every new node is linked and counted: the unheld root takes them all with it at the next sweep.
    store.float(made[0]!);
    throw error;
  }
  trimStaging(store);
  return made[0]!;
}

/** Each path node's children on the paths become the new nodes of their entries (pathLefts / pathRights rewritten). */
function linkNew(total: number): void {
  const lefts = pathLefts;
  const rights = pathRights;
  const ups = pathUps;
  for (let w = 1; w < total; w++) {
    const half = ups[w]!;
    if ((half & 1) === 0) lefts[half >>> 1] = made[w]!;
    else rights[half >>> 1] = made[w]!;
  }
}

/** Each child beside the paths gains a link (its new parent's). */
function linkBesides(store: NodeStore): void {
  const pools = store.pools;
  const ids = besideIds;
  for (let b = 0, n = besideCount; b < n; b++) {
    const id = ids[b]!;
    if ((id & 15) === KIND_ZERO) continue;
    const pool = pools[id & 15]!;
    const slot = id >>> 4;
    pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.rcAt]!++;
  }
}

/**
 * The written positions' new wide leaves: the slab's words, the root
 * hashed up front (also copied into level 1's messages, from st[at]), held
 * by their parent's link.
 */
function makeLeaves(store: NodeStore, src: SlabWides, first: number, st: Int32Array, at: number): void {
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
  const ups = pathUps;
  const base = at - 16 * levelStart[1]!;
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
    const h = pool.h32[page]!;
    const o = off << 3;
    const s = base + 8 * ups[first + i]!;
    copy8(roots, r, h, o, st, s);
    const m = pool.meta[page]!;
    m[off << 1] = 1;
    m[(off << 1) + 1] = 0;
    created[i] = id;
  }
}

/** The new branches' rows: their children, held by their parent's link (the root by none: the caller attaches it). */
function writeRows(store: NodeStore, count: number): void {
  const branches = store.branches;
  const meta = branches.meta;
  const shift = branches.shift;
  const mask = branches.mask;
  const lefts = pathLefts;
  const rights = pathRights;
  for (let k = 0; k < count; k++) {
    const slot = made[k]! >>> 4;
    const m = meta[slot >>> shift]!;
    const b = (slot & mask) << 2;
    m[b] = lefts[k]!;
    m[b + 1] = rights[k]!;
    m[b + 2] = 1;
    m[b + 3] = 0;
  }
  const slot = made[0]! >>> 4;
  meta[slot >>> shift]![((slot & mask) << 2) + 2] = 0;
}

/**
 * Hashes level d's new branches, whose messages are at st[at] (entry k's
 * at st[at + 16(k - levelStart[d])], its new children's hashes already
 * there): the hashes of the children beside the paths gathered in, one
 * hasher call in place, and each hash copied into its branch's slot and
 * into its parent's message at st[up].
 */
function hashLevel(store: NodeStore, d: number, st8: Uint8Array, st: Int32Array, at: number, up: number): void {
  const start = levelStart[d]!;
  const end = levelEnd[d]!;
  const pools = store.pools;
  const halves = besideHalves;
  const ids = besideIds;
  const base = at - 16 * start;
  for (let b = besideStart[d]!, bEnd = besideStart[d - 1]!; b < bEnd; b++) {
    const id = ids[b]!;
    const pool = pools[id & 15]!;
    const slot = id >>> 4;
    const h = pool.h32[slot >>> pool.shift]!;
    const o = (slot & pool.mask) << 3;
    const s = base + 8 * halves[b]!;
    st[s] = h[o]!;
    st[s + 1] = h[o + 1]!;
    st[s + 2] = h[o + 2]!;
    st[s + 3] = h[o + 3]!;
    st[s + 4] = h[o + 4]!;
    st[s + 5] = h[o + 5]!;
    st[s + 6] = h[o + 6]!;
    st[s + 7] = h[o + 7]!;
  }
  hashInto(st8.subarray(4 * at, 4 * at + 64 * (end - start)), st8.subarray(4 * at, 4 * at + 32 * (end - start)));
  const branches = store.branches;
  const shift = branches.shift;
  const mask = branches.mask;
  const hashPages = branches.h32;
  const ups = pathUps;
  // The root (level `depth`, entry 0) has no parent: its hash only goes to its slot.
  const parents = start === 0 ? 0 : up - 16 * levelStart[d + 1]!;
  for (let k = start, s = at; k < end; k++, s += 8) {
    const slot = made[k]! >>> 4;
    copy8(st, s, hashPages[slot >>> shift]!, (slot & mask) << 3, st, k === 0 ? s : parents + 8 * ups[k]!);
  }
}

/** Copies the 8 words at from[f] to a[x] and to b[y]. */
function copy8(from: Int32Array, f: number, a: Int32Array, x: number, b: Int32Array, y: number): void {
  const w0 = from[f]!;
  const w1 = from[f + 1]!;
  const w2 = from[f + 2]!;
  const w3 = from[f + 3]!;
  const w4 = from[f + 4]!;
  const w5 = from[f + 5]!;
  const w6 = from[f + 6]!;
  const w7 = from[f + 7]!;
  a[x] = w0;
  a[x + 1] = w1;
  a[x + 2] = w2;
  a[x + 3] = w3;
  a[x + 4] = w4;
  a[x + 5] = w5;
  a[x + 6] = w6;
  a[x + 7] = w7;
  b[y] = w0;
  b[y + 1] = w1;
  b[y + 2] = w2;
  b[y + 3] = w3;
  b[y + 4] = w4;
  b[y + 5] = w5;
  b[y + 6] = w6;
  b[y + 7] = w7;
}
