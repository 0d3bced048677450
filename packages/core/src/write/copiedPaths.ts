/**
 * The shared half of the fused copies under a root the caller does not own
 * (copiedWides.ts: a slab of wide leaves, e.g. a block's balances on a clone
 * of the previous head; copiedRecords.ts: records from bytes, e.g. a block's
 * validator pairs). The paths are found breadth first (ownedPaths.ts, any
 * holders); then every new node's slot is taken at once, each path node's
 * children are known (the new node of the entry below it on a path, else
 * its old child, which gains a link) and every new branch's row is written
 * (`startCopiedPaths`); the caller fills the written positions' new leaves
 * and puts each one's root in level 1's messages (`leafMessage`); and the
 * branches are hashed bottom up, one hasher call per level
 * (`finishCopiedPaths`).
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
 * off-path child gained one link. `startCopiedPaths` says false having
 * changed nothing when a path runs through something other than branches,
 * and throws `STORE_FULL` having changed nothing when a pool cannot grow
 * (every slot taken given back). From its true on, everything made is
 * linked under the new root: if a later step throws, the caller floats
 * `made[0]` (`abandonCopiedPaths`) and the next sweep frees it all.
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import { staging, trimStaging } from '../hash/flush.js';
import { KIND_ZERO, type NodeId } from '../nodes/ids.js';
import type { Pool } from '../nodes/pool.js';
import { besideCount, besideHalves, besideIds, besideStart, findOwnedPaths, gatherHash, levelEnd, levelStart, pathLefts, pathRights, pathUps, pendingBesidePaths } from './ownedPaths.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/**
 * New node of each path entry (indexed like ownedPaths' entries: [0,
 * levelStart[0]) the path nodes, level by level from the root, then the
 * written positions); grown to the largest batch.
 */
export let made = new Int32Array(1024);
/** The two message buffers of the widest level (as bytes and words), used in turn; `other` is the second one's word offset. */
let st8: Uint8Array = new Uint8Array(0);
let st: Int32Array = new Int32Array(0);
let other = 0;

/**
 * Finds the paths of `indices` (strictly ascending, checked by the caller)
 * at level `depth` under `root`, takes a slot of `leafPool` for each
 * written position (made[levelStart[0] + i]) and a branch for each path
 * node, counts the links and writes the branches' rows. False (nothing
 * changed) when the batch does not qualify.
 */
export function startCopiedPaths(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, leafPool: Pool): boolean {
  if (!findOwnedPaths(store, root, depth, indices, 0, true)) return false;
  if (pendingBesidePaths()) store.flush();
  const branches = levelStart[0]!;
  const total = levelEnd[0]!;
  if (made.length < total) made = new Int32Array(Math.max(total, 2 * made.length));
  leafPool.allocIds(made, branches, total);
  try {
    store.branches.allocIds(made, 0, branches);
  } catch (error) {
    leafPool.giveBack(made, branches, total);
    throw error;
  }
  // Every new node has its slot: nothing below throws.
  linkNew(total);
  linkBesides(store);
  let widest = 0;
  for (let d = 1; d <= depth; d++) widest = Math.max(widest, levelEnd[d]! - levelStart[d]!);
  st8 = staging(store, 128 * widest);
  st = new Int32Array(st8.buffer, 0, 32 * widest);
  other = 16 * widest;
  writeRows(store, branches);
  return true;
}

/** The first written position's entry: written position i's new node is made[writtenFrom() + i]. */
export function writtenFrom(): number {
  return levelStart[0]!;
}

/** The words of level 1's messages, and where written position i's root goes in them: `leafMessage(i)`. */
export function levelOneMessages(): Int32Array {
  return st;
}

/** The word offset in `levelOneMessages()` of written position i's root (its half of its parent's message). */
export function leafMessage(i: number): number {
  return 8 * pathUps[levelStart[0]! + i]! - 16 * levelStart[1]!;
}

/** Hashes the path levels bottom up over the written positions' roots (in level 1's messages) and returns the new root (no holder). */
export function finishCopiedPaths(store: NodeStore, depth: number): NodeId {
  try {
    for (let d = 1, at = 0; d <= depth; d++, at = other - at) hashLevel(store, d, at, other - at);
  } catch (error) {
    abandonCopiedPaths(store);
    throw error;
  }
  trimStaging(store);
  return made[0]!;
}

/** After a step between start and finish threw: every new node is linked and counted, so the unheld root takes them all with it at the next sweep. */
export function abandonCopiedPaths(store: NodeStore): void {
  store.float(made[0]!);
  trimStaging(store);
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
function hashLevel(store: NodeStore, d: number, at: number, up: number): void {
  const start = levelStart[d]!;
  const end = levelEnd[d]!;
  const pools = store.pools;
  const halves = besideHalves;
  const ids = besideIds;
  const base = at - 16 * start;
  for (let b = besideStart[d]!, bEnd = besideStart[d - 1]!; b < bEnd; b++) gatherHash(pools, ids[b]!, st, base + 8 * halves[b]!);
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
export function copy8(from: Int32Array, f: number, a: Int32Array, x: number, b: Int32Array, y: number): void {
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
