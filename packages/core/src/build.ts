/**
 * Building subtrees from packed chunks, hashed as they are built.
 *
 * Each level's nodes are allocated as one contiguous, even-aligned run of
 * slots, so the hashes of siblings sit next to each other in the hash pages
 * and a whole level hashes straight from the child pages into the parent
 * pages: one `hashInto` per page-sized segment (2^15 nodes), no staging copy.
 * Every node of a fresh build needs hashing anyway, so it is done right away
 * instead of through the pending lists; the result is indistinguishable from
 * a lazily hashed tree.
 *
 * Invariant: every node returned by this module is hashed (dh 0, not pending)
 * and the returned root has no holder yet (the caller attaches or floats it).
 * @module
 */
import { hashInto, zeroHashInto } from '@ssztree/hasher';
import { CoreError } from './errors.js';
import { checkDepth } from './gindex.js';
import { KIND_BRANCH, KIND_ZERO, MAX_ZERO_DEPTH, type NodeId, zeroId } from './ids.js';
import type { Pool } from './pool.js';
import type { StoreCore as NodeStore } from './store.js';

const pairScratch = new Uint8Array(64);

/** Copies a hashed node's digest into `out` at `offset` (no flush). */
export function readHashRaw(store: NodeStore, id: NodeId, out: Uint8Array, offset: number): void {
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  const o = (slot & pool.mask) << 5;
  out.set(pool.h8[slot >>> pool.shift]!.subarray(o, o + 32), offset);
}

/** A branch over two hashed children, hashed now. */
export function hashedBranch(store: NodeStore, left: NodeId, right: NodeId): NodeId {
  const pool = store.branches;
  const slot = pool.alloc();
  const page = slot >>> pool.shift;
  const off = slot & pool.mask;
  pool.left[page]![off] = left;
  pool.right[page]![off] = right;
  pool.rc[page]![off] = 0;
  pool.dh[page]![off] = 0;
  pool.flags[page]![off] = 0;
  if ((left & 15) !== KIND_ZERO) store.retainUnchecked(left);
  if ((right & 15) !== KIND_ZERO) store.retainUnchecked(right);
  readHashRaw(store, left, pairScratch, 0);
  readHashRaw(store, right, pairScratch, 32);
  hashInto(pairScratch, pool.h8[page]!.subarray(off << 5, (off << 5) + 32));
  return (slot << 4) | KIND_BRANCH;
}

/**
 * The subtree of depth `depth` whose first leaves are `chunks` (a multiple of
 * 32 bytes, at most 2^depth chunks) and the rest zero.
 */
export function buildFromChunks(store: NodeStore, chunks: Uint8Array, depth: number): NodeId {
  if (chunks.length % 32 !== 0) throw new CoreError('BAD_INPUT', `chunk bytes ${chunks.length} are not a multiple of 32`);
  checkDepth(depth, 0, MAX_ZERO_DEPTH);
  const count = chunks.length / 32;
  if (count > 2 ** depth) throw new CoreError('INDEX_RANGE', `${count} chunks do not fit in depth ${depth}`);
  if (count === 0) return zeroId(depth);

  const leaves = store.leaves;
  const leafStart = leaves.allocRange(count);
  for (let i = 0; i < count; ) {
    const slot = leafStart + i;
    const page = slot >>> leaves.shift;
    const off = slot & leaves.mask;
    const n = Math.min(count - i, leaves.pageSize - off);
    leaves.h8[page]!.set(chunks.subarray(32 * i, 32 * (i + n)), 32 * off);
    leaves.rc[page]!.fill(0, off, off + n);
    leaves.flags[page]!.fill(0, off, off + n);
    i += n;
  }

  let pool: Pool = leaves;
  let start = leafStart;
  let n = count;
  let level = 0;
  while (n > 1) {
    const parents = (n + 1) >>> 1;
    const parentStart = linkLevel(store, pool, start, n, level);
    hashLevel(store, pool, start, n, parentStart, level);
    pool = store.branches;
    start = parentStart;
    n = parents;
    level++;
  }
  let root: NodeId = (start << 4) | pool.kind;
  for (; level < depth; level++) root = hashedBranch(store, root, zeroId(level));
  return root;
}

/** Allocates and links the parents of children [start, start+n) of `pool`. */
function linkLevel(store: NodeStore, pool: Pool, start: number, n: number, level: number): number {
  const branches = store.branches;
  const parents = (n + 1) >>> 1;
  const parentStart = branches.allocRange(parents);
  const kind = pool.kind;
  const zero = zeroId(level);
  for (let i = 0; i < parents; ) {
    const slot = parentStart + i;
    const page = slot >>> branches.shift;
    const off = slot & branches.mask;
    const m = Math.min(parents - i, branches.pageSize - off);
    const left = branches.left[page]!;
    const right = branches.right[page]!;
    for (let j = 0; j < m; j++) {
      const c = start + 2 * (i + j);
      left[off + j] = (c << 4) | kind;
      right[off + j] = 2 * (i + j) + 1 < n ? ((c + 1) << 4) | kind : zero;
    }
    branches.rc[page]!.fill(0, off, off + m);
    branches.dh[page]!.fill(0, off, off + m);
    branches.flags[page]!.fill(0, off, off + m);
    i += m;
  }
  // Every child now has exactly one parent.
  for (let i = 0; i < n; ) {
    const slot = start + i;
    const off = slot & pool.mask;
    const m = Math.min(n - i, pool.pageSize - off);
    pool.rc[slot >>> pool.shift]!.fill(1, off, off + m);
    i += m;
  }
  return parentStart;
}

/** Hashes the parents of children [start, start+n) straight from page to page. */
function hashLevel(store: NodeStore, pool: Pool, start: number, n: number, parentStart: number, level: number): void {
  const branches = store.branches;
  const fullPairs = n >>> 1;
  for (let i = 0; i < fullPairs; ) {
    const cslot = start + 2 * i;
    const coff = cslot & pool.mask;
    const pslot = parentStart + i;
    const poff = pslot & branches.mask;
    const seg = Math.min(fullPairs - i, (pool.pageSize - coff) >>> 1, branches.pageSize - poff);
    hashInto(
      pool.h8[cslot >>> pool.shift]!.subarray(32 * coff, 32 * (coff + 2 * seg)),
      branches.h8[pslot >>> branches.shift]!.subarray(32 * poff, 32 * (poff + seg)),
    );
    i += seg;
  }
  if ((n & 1) === 1) {
    // The last child pairs with the zero subtree of its level.
    const cslot = start + n - 1;
    const pslot = parentStart + fullPairs;
    const coff = cslot & pool.mask;
    pairScratch.set(pool.h8[cslot >>> pool.shift]!.subarray(32 * coff, 32 * coff + 32), 0);
    zeroHashInto(level, pairScratch, 32);
    const poff = pslot & branches.mask;
    hashInto(pairScratch, branches.h8[pslot >>> branches.shift]!.subarray(32 * poff, 32 * poff + 32));
  }
}
