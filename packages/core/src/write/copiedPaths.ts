/**
 * The upper half of the fused copies (copiedWides.ts for a slab of wide
 * leaves, copiedRecords.ts for records from bytes): once the caller has
 * found the paths breadth first (ownedPaths.ts `findOwnedPaths`, any
 * holders) and put a new hashed node for each written position in
 * `copied`, the path levels are built bottom up, one at a time: each path
 * node gets a new branch over its new children and its old off-path ones
 * (which gain a link), and each level is hashed by one hasher call as soon
 * as it is linked.
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
 * child gained one link. If hashing throws, the level made last is floated,
 * so the next sweep frees everything made (the written nodes included:
 * that level links them).
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import { staging, trimStaging } from '../hash/flush.js';
import { KIND_BRANCH, KIND_ZERO, type NodeId } from '../nodes/ids.js';
import { gatherHash, levelEnd, levelStart, pathBases, pathLefts, pathRights, scatterHashes } from './ownedPaths.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/** New node of each path entry (indexed like ownedPaths' entries); the written level's are the caller's. */
export let copied = new Int32Array(1024);

/** Makes room in `copied` for the entries of the paths `findOwnedPaths` just recorded (levels 0 up). */
export function reserveCopied(): void {
  const total = levelEnd[0]!;
  if (copied.length < total) copied = new Int32Array(Math.max(total, 2 * copied.length));
}

/**
 * Builds and hashes levels 1 .. depth over the written level's new nodes
 * (copied[levelStart[0] ..]), and returns the new root (no holder).
 */
export function copyPathsUp(store: NodeStore, depth: number): NodeId {
  for (let d = 1; d <= depth; d++) {
    linkLevel(store, d);
    try {
      hashLevel(store, d);
    } catch (error) {
      for (let k = levelStart[d]!; k < levelEnd[d]!; k++) store.float(copied[k]!);
      throw error;
    }
  }
  trimStaging(store);
  return copied[0]!;
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
      left = copied[j++]!;
      linkNew(store, left);
    } else if ((left & 15) !== KIND_ZERO) store.retainUnchecked(left);
    if (j < jEnd && pathBases[j] === base + half) {
      right = copied[j++]!;
      linkNew(store, right);
    } else if ((right & 15) !== KIND_ZERO) store.retainUnchecked(right);
    const slot = branches.alloc();
    const m = branches.meta[slot >>> branches.shift]!;
    const b = (slot & branches.mask) << 2;
    m[b] = left;
    m[b + 1] = right;
    m[b + 2] = 0;
    m[b + 3] = 0;
    copied[k] = (slot << 4) | KIND_BRANCH;
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
    const slot = copied[start + k]! >>> 4;
    const m = branches.meta[slot >>> branches.shift]!;
    const b = (slot & branches.mask) << 2;
    gatherHash(pools, m[b]!, st, s);
    gatherHash(pools, m[b + 1]!, st, s + 8);
  }
  hashInto(st8.subarray(0, 64 * count), st8.subarray(0, 32 * count));
  scatterHashes(branches, copied, start, count, st);
}
