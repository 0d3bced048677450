/**
 * Building subtrees from packed chunks, hashed as they are built.
 *
 * Each level's nodes are allocated as runs of consecutive slots (whole free
 * pages first, then fresh slots; see `Pool.allocRuns`), each run inside one
 * page and of even length, so the hashes of siblings sit next to each other
 * in the hash pages and a level hashes straight from the child pages into the
 * parent pages: one `hashInto` per run (up to 2^15 nodes), no staging copy.
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
  const m = pool.meta[page]!;
  m[off << 2] = left;
  m[(off << 2) + 1] = right;
  m[(off << 2) + 2] = 0;
  m[(off << 2) + 3] = 0;
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
  const leafRuns = leaves.allocRuns(count);
  for (let r = 0, i = 0; r < leafRuns.length; r += 2) {
    const slot = leafRuns[r]!;
    const n = leafRuns[r + 1]!;
    const off = slot & leaves.mask;
    leaves.h8[slot >>> leaves.shift]!.set(chunks.subarray(32 * i, 32 * (i + n)), 32 * off);
    // rc 1 (each leaf gets one parent) unless it is the root; state 0.
    fillMeta(leaves, slot, n, count > 1 ? 1 : 0);
    i += n;
  }

  let pool: Pool = leaves;
  let runs = leafRuns;
  let n = count;
  let level = 0;
  while (n > 1) {
    const parents = (n + 1) >>> 1;
    const parentRuns = store.branches.allocRuns(parents);
    linkLevel(store, pool, runs, n, parentRuns, level);
    hashLevel(store, pool, runs, n, parentRuns, level);
    pool = store.branches;
    runs = parentRuns;
    n = parents;
    level++;
  }
  let root: NodeId = (runs[0]! << 4) | pool.kind;
  for (; level < depth; level++) root = hashedBranch(store, root, zeroId(level));
  return root;
}

/** Sets rc and state of slots [slot, slot+n) (one page) of a non-branch pool. */
function fillMeta(pool: Pool, slot: number, n: number, rc: number): void {
  const m = pool.meta[slot >>> pool.shift]!;
  const off = slot & pool.mask;
  for (let j = 0; j < n; j++) {
    m[(off + j) * 2] = rc;
    m[(off + j) * 2 + 1] = 0;
  }
}

/** Links the parents (in `parentRuns`) of the `n` children in `childRuns` of `pool`. */
function linkLevel(store: NodeStore, pool: Pool, childRuns: number[], n: number, parentRuns: number[], level: number): void {
  const branches = store.branches;
  const kind = pool.kind;
  const zero = zeroId(level);
  const parentRc = (n + 1) >>> 1 > 1 ? 1 : 0;
  let cr = 0;
  let cSlot = childRuns[0]!;
  let cLeft = childRuns[1]!;
  let done = 0;
  for (let r = 0; r < parentRuns.length; r += 2) {
    const slot = parentRuns[r]!;
    const m = branches.meta[slot >>> branches.shift]!;
    const off = slot & branches.mask;
    const len = parentRuns[r + 1]!;
    for (let j = 0; j < len; j++) {
      const b = (off + j) << 2;
      if (cLeft === 0) {
        cr += 2;
        cSlot = childRuns[cr]!;
        cLeft = childRuns[cr + 1]!;
      }
      m[b] = (cSlot << 4) | kind;
      if (done + 1 < n) {
        // Runs have even length except the last, so the sibling is in this run.
        m[b + 1] = ((cSlot + 1) << 4) | kind;
        cSlot += 2;
        cLeft -= 2;
      } else {
        m[b + 1] = zero;
        cSlot += 1;
        cLeft -= 1;
      }
      done += 2;
      m[b + 2] = parentRc;
      m[b + 3] = 0;
    }
  }
}

/** Hashes the parents of the `n` children in `childRuns`, page to page, run by run. */
function hashLevel(store: NodeStore, pool: Pool, childRuns: number[], n: number, parentRuns: number[], level: number): void {
  const branches = store.branches;
  const fullPairs = n >>> 1;
  let cr = 0;
  let cSlot = childRuns[0]!;
  let cLeft = childRuns[1]!;
  let pr = 0;
  let pSlot = parentRuns[0]!;
  let pLeft = parentRuns[1]!;
  for (let done = 0; done < fullPairs; ) {
    if (cLeft === 0) {
      cr += 2;
      cSlot = childRuns[cr]!;
      cLeft = childRuns[cr + 1]!;
    }
    if (pLeft === 0) {
      pr += 2;
      pSlot = parentRuns[pr]!;
      pLeft = parentRuns[pr + 1]!;
    }
    const seg = Math.min(fullPairs - done, cLeft >>> 1, pLeft);
    const coff = cSlot & pool.mask;
    const poff = pSlot & branches.mask;
    hashInto(
      pool.h8[cSlot >>> pool.shift]!.subarray(32 * coff, 32 * (coff + 2 * seg)),
      branches.h8[pSlot >>> branches.shift]!.subarray(32 * poff, 32 * (poff + seg)),
    );
    cSlot += 2 * seg;
    cLeft -= 2 * seg;
    pSlot += seg;
    pLeft -= seg;
    done += seg;
  }
  if ((n & 1) === 1) {
    // The last child pairs with the zero subtree of its level.
    if (cLeft === 0) {
      cr += 2;
      cSlot = childRuns[cr]!;
    }
    if (pLeft === 0) {
      pr += 2;
      pSlot = parentRuns[pr]!;
    }
    const coff = cSlot & pool.mask;
    pairScratch.set(pool.h8[cSlot >>> pool.shift]!.subarray(32 * coff, 32 * coff + 32), 0);
    zeroHashInto(level, pairScratch, 32);
    const poff = pSlot & branches.mask;
    hashInto(pairScratch, branches.h8[pSlot >>> branches.shift]!.subarray(32 * poff, 32 * poff + 32));
  }
}
