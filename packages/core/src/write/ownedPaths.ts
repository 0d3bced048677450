/**
 * Owned paths of a batch, found breadth first and hashed bottom up: the
 * shared half of the fused in-place writes (ownedWides.ts for slabs of wide
 * leaves, ownedPairs.ts for record pairs), which skip the general walk of
 * batchWrite.ts and its pending lists.
 *
 * `findOwnedPaths` goes down from an owned root, level by level, to the
 * level `stop` levels above the written positions, recording each level's
 * path nodes in position order with the range of the batch below each and
 * each one's place under its parent, and the children beside the paths
 * (copiedWides.ts links and hashes those). It changes nothing, and says no (false) when a path node is not a branch or
 * a child on a path is not held by its parent's link alone: the caller then
 * hands the batch to the walk. `hashOwnedPaths`, once the caller has
 * rewritten what lies below, hashes the recorded branch levels bottom up,
 * one hasher call per level, each node's children's hashes gathered
 * straight from the store.
 *
 * Why: the walk recurses down each path, lists every path node for the
 * flush at its dirty height (reading both children's rows), and the flush
 * reads every row again; here each path node is read once going down and
 * once going up, and the loads of a level are independent of one another.
 * A block's ~1000 balance pages have ~5 400 path nodes.
 *
 * Invariant: after `hashOwnedPaths`, every recorded branch carries the hash
 * of its current children; off-path children found pending on the way down
 * are hashed first (a store flush), so no gathered hash is stale. The
 * scratch is module state: one batch at a time, synchronously.
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import { staging, trimStaging } from '../hash/flush.js';
import { KIND_BRANCH, KIND_COUNT, KIND_RECORD_BASE, KIND_WIDE_BASE, KIND_ZERO, type NodeId } from '../nodes/ids.js';
import { soleLink } from './inPlace.js';
import { FLAG_PENDING } from '../nodes/pool.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/**
 * Scratch entries kept between batches (48 bytes each, the beside lists counted: at most 12 MiB); a
 * larger batch's scratch is dropped after it, or by the next batch if it did not qualify. An epoch's
 * 16384 validator pairs take ~115k entries (5.5 MB): with 2^16 kept they were allocated afresh at each
 * epoch and again at the next block, and the path search of the epoch's copy, faulting the fresh pages
 * in, took 9.2–18.4 ms CPU against 5.5–5.7 with them kept (medians of bench/validator-epoch.ts, three
 * alternated process pairs).
 */
const RETAINED_ENTRIES = 1 << 18;

/** The path nodes, level after level from the root down; entry k's batch range [lo, hi) and first position below. */
export let pathNodes = new Int32Array(1024);
export let pathLos = new Int32Array(1024);
export let pathHis = new Int32Array(1024);
export let pathBases = new Float64Array(1024);
/** Entry k's children, read going down so that hashing going up does not read its row again. */
export let pathLefts = new Int32Array(1024);
export let pathRights = new Int32Array(1024);
/** Entry k's place below its parent p (k > 0): the half 2p (left child) or 2p + 1 (right child). */
export let pathUps = new Int32Array(1024);
/** The halves (2p + side) of path nodes whose child there is beside the paths, `besideCount` of them, level by level. */
export let besideHalves = new Int32Array(2048);
/** The children there (besideIds[b] at besideHalves[b]). */
export let besideIds = new Int32Array(2048);
export let besideCount = 0;
/** besideStart[d]: the first of besideHalves / besideIds under the path nodes of level d (those of level d run to besideStart[d - 1]). */
export const besideStart = new Int32Array(65);
/** levelStart[d] .. levelEnd[d]: the entries of the path nodes d levels above the written positions. */
export const levelStart = new Int32Array(65);
export const levelEnd = new Int32Array(65);

function ensure(size: number): void {
  if (pathNodes.length >= size && pathNodes.length <= Math.max(size, RETAINED_ENTRIES)) return;
  const n = pathNodes.length >= size ? Math.max(size, 1024) : Math.max(size, 2 * pathNodes.length);
  pathNodes = new Int32Array(n);
  pathLos = new Int32Array(n);
  pathHis = new Int32Array(n);
  pathBases = new Float64Array(n);
  pathLefts = new Int32Array(n);
  pathRights = new Int32Array(n);
  pathUps = new Int32Array(n);
  besideHalves = new Int32Array(2 * n);
  besideIds = new Int32Array(2 * n);
}

/** True when `id` waits for the flush to hash it (zero subtrees never do). */
export function isPending(store: NodeStore, id: NodeId): boolean {
  if ((id & 15) === KIND_ZERO) return false;
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  return (pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.stAt]! & FLAG_PENDING) !== 0;
}

/** Set by `findOwnedPaths`: an off-path child of a path node is pending (hash the store before gathering). */
let pendingBeside = false;

/** Whether the last `findOwnedPaths` met a pending off-path child (copiedWides.ts flushes before gathering, as `hashOwnedPaths` does). */
export function pendingBesidePaths(): boolean {
  return pendingBeside;
}

/** mayPend[kind] = 1 when some node of that kind is listed for the flush: off-path children of other kinds are not read. */
const mayPend = new Uint8Array(KIND_COUNT);

function listPendingKinds(store: NodeStore): void {
  mayPend.fill(0);
  mayPend[KIND_BRANCH] = store.maxPendingHeight > 0 ? 1 : 0;
  for (let d = 1; d < store.widePending.length; d++) if (store.widePending[d]!.length > 0) mayPend[KIND_WIDE_BASE + d - 1] = 1;
  for (let kind = KIND_RECORD_BASE; kind < KIND_COUNT; kind++) if (store.recordPending[kind]!.length > 0) mayPend[kind] = 1;
}

/**
 * The next level's entry w for `child`, at `half` of its parent, whose part
 * of the batch is [lo, hi) from position `base`: returns w + 1 when that
 * part is not empty (the child is on a path), w when it is (the child is
 * beside the paths: its half listed, and noted if it is pending). Whether a
 * child on a path is held by its parent's link alone is checked when its
 * own level is read (`findOwnedPaths`), not here.
 */
function takeChild(store: NodeStore, child: NodeId, half: number, lo: number, hi: number, base: number, w: number): number {
  if (hi === lo) {
    if (mayPend[child & 15] !== 0 && isPending(store, child)) pendingBeside = true;
    besideHalves[besideCount] = half;
    besideIds[besideCount++] = child;
    return w;
  }
  pathNodes[w] = child;
  pathLos[w] = lo;
  pathHis[w] = hi;
  pathBases[w] = base;
  pathUps[w] = half;
  return w + 1;
}

/**
 * Records the owned paths from `root` (owned by the caller) to positions
 * `indices` (strictly ascending) of level `depth`, down to `stop` levels
 * above them (levels depth .. stop); false, having changed nothing, when a
 * path node is not a branch or a node below the root is shared. With
 * `shared`, the paths are recorded whoever else holds them (for a copy).
 */
export function findOwnedPaths(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, stop: number, shared = false): boolean {
  if (depth <= stop || depth > 64) return false;
  const n = indices.length;
  // Level d (d levels above the positions) has at most one path node per position, and no more than the
  // span of the positions covers there: an epoch's 16384 validator pairs below a list of 2^40 take ~130k
  // entries, where min(n, 2^(depth - d)) reserved 442k (12 MB of scratch, allocated again each epoch).
  const first = indices[0]!;
  const last = indices[n - 1]!;
  let bound = 0;
  for (let d = stop; d <= depth; d++) {
    const width = 2 ** d;
    bound += Math.min(n, Math.floor(last / width) - Math.floor(first / width) + 1);
  }
  ensure(bound);
  const nodes = pathNodes;
  const los = pathLos;
  const his = pathHis;
  const bases = pathBases;
  const lefts = pathLefts;
  const rights = pathRights;
  listPendingKinds(store);
  const branches = store.branches;
  const meta = branches.meta;
  const shift = branches.shift;
  const mask = branches.mask;
  nodes[0] = root;
  los[0] = 0;
  his[0] = n;
  bases[0] = 0;
  levelStart[depth] = 0;
  levelEnd[depth] = 1;
  pendingBeside = false;
  besideCount = 0;
  // A path node below the root must be held by its parent's link alone. That count sits in the node's
  // own meta row, next to the links read here, so it is checked when the node's level is read (the last
  // level's in one pass at the end): each level's row loads then depend only on the level above, and
  // the loads of a level overlap instead of waiting on a row read just before them.
  const checkLinks = !shared;
  for (let d = depth; d > stop; d--) {
    const half = d <= 31 ? 1 << (d - 1) : 2 ** (d - 1);
    const end = levelEnd[d]!;
    const below = d < depth && checkLinks;
    // The level's rows first, in a loop of their own: its loads are independent of one another and
    // nothing in it branches on data, so their cache misses overlap (the splits below branch on the
    // positions, and a mispredicted branch there would discard the loads issued after it).
    for (let k = levelStart[d]!; k < end; k++) {
      const node = nodes[k]!;
      if ((node & 15) !== KIND_BRANCH) return false;
      const slot = node >>> 4;
      const m = meta[slot >>> shift]!;
      const b = (slot & mask) << 2;
      if (below && m[b + 2]! !== 1) return false;
      lefts[k] = m[b]!;
      rights[k] = m[b + 1]!;
    }
    let w = end;
    besideStart[d] = besideCount;
    for (let k = levelStart[d]!; k < end; k++) {
      const lo = los[k]!;
      const hi = his[k]!;
      const base = bases[k]!;
      const mid = base + half;
      // The first position at or past mid: most ranges near the top lie all on one side.
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
      w = takeChild(store, lefts[k]!, 2 * k, lo, split, base, w);
      w = takeChild(store, rights[k]!, 2 * k + 1, split, hi, mid, w);
    }
    levelStart[d - 1] = end;
    levelEnd[d - 1] = w;
  }
  besideStart[stop] = besideCount;
  if (checkLinks && stop < depth) for (let k = levelStart[stop]!, end = levelEnd[stop]!; k < end; k++) if (!soleLink(store, nodes[k]!)) return false;
  return true;
}

/** Copies the hash of `id` into st[s, s + 8). */
export function gatherHash(pools: NodeStore['pools'], id: NodeId, st: Int32Array, s: number): void {
  const pool = pools[id & 15]!;
  const slot = id >>> 4;
  const h = pool.h32[slot >>> pool.shift]!;
  const o = (slot & pool.mask) << 3;
  st[s] = h[o]!;
  st[s + 1] = h[o + 1]!;
  st[s + 2] = h[o + 2]!;
  st[s + 3] = h[o + 3]!;
  st[s + 4] = h[o + 4]!;
  st[s + 5] = h[o + 5]!;
  st[s + 6] = h[o + 6]!;
  st[s + 7] = h[o + 7]!;
}

/** Writes the hashes staged at st[8k..8k + 8) into branches nodes[start + k], k < count, as words. */
export function scatterHashes(branches: NodeStore['branches'], nodes: Int32Array, start: number, count: number, st: Int32Array): void {
  const shift = branches.shift;
  const mask = branches.mask;
  const hashPages = branches.h32;
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

/** Hashes the branches `findOwnedPaths` recorded at levels stop + 1 .. depth, bottom up. */
export function hashOwnedPaths(store: NodeStore, depth: number, stop: number): void {
  if (pendingBeside) store.flush();
  const nodes = pathNodes;
  const lefts = pathLefts;
  const rights = pathRights;
  const branches = store.branches;
  const pools = store.pools;
  for (let d = stop + 1; d <= depth; d++) {
    const start = levelStart[d]!;
    const count = levelEnd[d]! - start;
    const st8 = staging(store, 64 * count);
    const st = new Int32Array(st8.buffer, 0, 16 * count);
    for (let k = 0, s = 0; k < count; k++, s += 16) {
      gatherHash(pools, lefts[start + k]!, st, s);
      gatherHash(pools, rights[start + k]!, st, s + 8);
    }
    hashInto(st8.subarray(0, 64 * count), st8.subarray(0, 32 * count));
    scatterHashes(branches, nodes, start, count, st);
  }
  trimStaging(store);
  if (pathNodes.length > RETAINED_ENTRIES) {
    pathNodes = new Int32Array(1024);
    pathLos = new Int32Array(1024);
    pathHis = new Int32Array(1024);
    pathBases = new Float64Array(1024);
    pathLefts = new Int32Array(1024);
    pathRights = new Int32Array(1024);
    pathUps = new Int32Array(1024);
    besideHalves = new Int32Array(2048);
    besideIds = new Int32Array(2048);
  }
}
