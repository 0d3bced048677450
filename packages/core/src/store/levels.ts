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
import { CoreError } from '../errors.js';
import { checkDepth } from '../gindex.js';
import { KIND_BRANCH, KIND_ZERO, MAX_ZERO_DEPTH, type NodeId, zeroId } from '../nodes/ids.js';
import type { Pool } from '../nodes/pool.js';
import type { StoreCore as NodeStore } from './storeCore.js';

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
 * Leaves are copied and hashed per block of 2^BLOCK_HEIGHT chunks, each block
 * carried up BLOCK_HEIGHT levels before the next is copied, so a block's
 * leaves and inner hashes (1 MiB at 2^14) are still in L2 when they are
 * hashed instead of every level streaming the whole tree through memory.
 * Measured on 2^20 chunks (build / merkleize, median of 10, busy 2-core
 * Xeon with 4 MiB L2): 2^8 1.73, 2^10 1.42, 2^12 1.32, 2^14 1.31, 2^16 1.30,
 * 2^20 (one block) 1.28 — small blocks lose to per-call overhead; past 2^12
 * the large L3 of that machine hides the difference. 2^14 keeps a block
 * inside a typical L2.
 */
const BLOCK_HEIGHT = 14;

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

  // Allocate and link every level first; hashes come after, block by block.
  const leaves = store.leaves;
  const leafRuns = leaves.allocRuns(count);
  for (let r = 0; r < leafRuns.length; r += 2) fillMeta(leaves, leafRuns[r]!, leafRuns[r + 1]!, count > 1 ? 1 : 0);
  const { hashers, root: top } = linkLevels(store, leaves, leafRuns, count);

  const copier = new LevelHasher(leaves, leafRuns, count, leaves, leafRuns, 0);
  const blocked = Math.min(BLOCK_HEIGHT, hashers.length);
  for (let first = 0; first < count; first += 1 << BLOCK_HEIGHT) {
    copier.copyChunks(chunks, first, Math.min(1 << BLOCK_HEIGHT, count - first));
    // A level's odd last node exists only once the last block is in.
    const last = first + (1 << BLOCK_HEIGHT) >= count;
    for (let h = 0; h < blocked; h++) hashers[h]!.step(1 << (BLOCK_HEIGHT - h - 1), last);
  }
  for (let h = blocked; h < hashers.length; h++) hashers[h]!.step(Number.MAX_SAFE_INTEGER, true);

  let root: NodeId = top;
  for (let level = hashers.length; level < depth; level++) root = hashedBranch(store, root, zeroId(level));
  return root;
}

/**
 * Allocates and links every branch level above `count` nodes of `pool` in
 * slot `runs` (bulk builds: hashes come after, level hasher by level
 * hasher, deepest first). Returns the hashers and the top node's id.
 * `height`: the nodes' height above the level whose padding is the zero
 * chunk (0, or 1 for record pairs), so an odd node pairs with zeroId(level + height).
 */
export function linkLevels(store: NodeStore, pool: Pool, runs: number[], count: number, height = 0): { hashers: LevelHasher[]; root: NodeId } {
  const hashers: LevelHasher[] = [];
  let n = count;
  for (let level = 0; n > 1; level++) {
    const parentRuns = store.branches.allocRuns((n + 1) >>> 1);
    linkLevel(store, pool, runs, n, parentRuns, level + height);
    hashers.push(new LevelHasher(pool, runs, n, store.branches, parentRuns, level + height));
    pool = store.branches;
    runs = parentRuns;
    n = (n + 1) >>> 1;
  }
  return { hashers, root: (runs[0]! << 4) | pool.kind };
}

/**
 * Walks one level's runs of children and of parents in step, hashing pairs
 * of children straight from their hash page into their parents' page.
 */
export class LevelHasher {
  private cr = 0;
  private cSlot: number;
  private cLeft: number;
  private pr = 0;
  private pSlot: number;
  private pLeft: number;
  private pairsLeft: number;
  private odd: boolean;

  constructor(
    private readonly pool: Pool,
    private readonly childRuns: number[],
    n: number,
    private readonly parents: Pool,
    private readonly parentRuns: number[],
    private readonly level: number,
  ) {
    this.cSlot = childRuns[0]!;
    this.cLeft = childRuns[1]!;
    this.pSlot = parentRuns[0]!;
    this.pLeft = parentRuns[1]!;
    this.pairsLeft = n >>> 1;
    this.odd = (n & 1) === 1;
  }

  private nextChildRun(): void {
    this.cr += 2;
    this.cSlot = this.childRuns[this.cr]!;
    this.cLeft = this.childRuns[this.cr + 1]!;
  }

  private nextParentRun(): void {
    this.pr += 2;
    this.pSlot = this.parentRuns[this.pr]!;
    this.pLeft = this.parentRuns[this.pr + 1]!;
  }

  /** Hashes up to `pairs` more full pairs; after the last, if `tail`, the odd child if any. */
  step(pairs: number, tail: boolean): void {
    const pool = this.pool;
    const parents = this.parents;
    let todo = Math.min(pairs, this.pairsLeft);
    this.pairsLeft -= todo;
    while (todo > 0) {
      if (this.cLeft === 0) this.nextChildRun();
      if (this.pLeft === 0) this.nextParentRun();
      const seg = Math.min(todo, this.cLeft >>> 1, this.pLeft);
      const coff = this.cSlot & pool.mask;
      const poff = this.pSlot & parents.mask;
      hashInto(
        pool.h8[this.cSlot >>> pool.shift]!.subarray(32 * coff, 32 * (coff + 2 * seg)),
        parents.h8[this.pSlot >>> parents.shift]!.subarray(32 * poff, 32 * (poff + seg)),
      );
      this.cSlot += 2 * seg;
      this.cLeft -= 2 * seg;
      this.pSlot += seg;
      this.pLeft -= seg;
      todo -= seg;
    }
    if (tail && this.pairsLeft === 0 && this.odd) {
      // The last child pairs with the zero subtree of its level.
      this.odd = false;
      if (this.cLeft === 0) this.nextChildRun();
      if (this.pLeft === 0) this.nextParentRun();
      const coff = this.cSlot & pool.mask;
      pairScratch.set(pool.h8[this.cSlot >>> pool.shift]!.subarray(32 * coff, 32 * coff + 32), 0);
      zeroHashInto(this.level, pairScratch, 32);
      const poff = this.pSlot & parents.mask;
      hashInto(pairScratch, parents.h8[this.pSlot >>> parents.shift]!.subarray(32 * poff, 32 * poff + 32));
    }
  }

  /** Copies chunks [first, first+count) into the next `count` leaves (used on the leaf runs). */
  copyChunks(chunks: Uint8Array, first: number, count: number): void {
    const pool = this.pool;
    let i = first;
    const end = first + count;
    while (i < end) {
      if (this.cLeft === 0) this.nextChildRun();
      const n = Math.min(end - i, this.cLeft);
      const off = this.cSlot & pool.mask;
      pool.h8[this.cSlot >>> pool.shift]!.set(chunks.subarray(32 * i, 32 * (i + n)), 32 * off);
      this.cSlot += n;
      this.cLeft -= n;
      i += n;
    }
  }
}

/** Sets rc and state of slots [slot, slot+n) (one page) of a non-branch pool. */
export function fillMeta(pool: Pool, slot: number, n: number, rc: number): void {
  const m = pool.meta[slot >>> pool.shift]!;
  const off = slot & pool.mask;
  // A row is [rc, state = 0]: one little-endian 64-bit value, filled natively.
  new BigInt64Array(m.buffer, m.byteOffset + 8 * off, n).fill(BigInt(rc));
}

/** Links the parents (in `parentRuns`) of the `n` children in `childRuns` of `pool`. */
export function linkLevel(store: NodeStore, pool: Pool, childRuns: number[], n: number, parentRuns: number[], level: number): void {
  const branches = store.branches;
  const kind = pool.kind;
  const parentRc = (n + 1) >>> 1 > 1 ? 1 : 0;
  let cr = 0;
  let cSlot = childRuns[0]!;
  let cLeft = childRuns[1]!;
  let done = 0; // children linked so far
  for (let r = 0; r < parentRuns.length; r += 2) {
    const slot = parentRuns[r]!;
    const m = branches.meta[slot >>> branches.shift]!;
    let b = (slot & branches.mask) << 2;
    let len = parentRuns[r + 1]!;
    while (len > 0) {
      if (cLeft === 0) {
        cr += 2;
        cSlot = childRuns[cr]!;
        cLeft = childRuns[cr + 1]!;
      }
      // Full pairs within the current child run (runs have even length
      // except the last), then at most one odd child, paired with zero.
      const pairs = Math.min(len, cLeft >>> 1, (n - done) >>> 1);
      let id = (cSlot << 4) | kind;
      for (let j = 0; j < pairs; j++, b += 4, id += 32) {
        m[b] = id;
        m[b + 1] = id + 16;
        m[b + 2] = parentRc;
        m[b + 3] = 0;
      }
      cSlot += 2 * pairs;
      cLeft -= 2 * pairs;
      done += 2 * pairs;
      len -= pairs;
      if (len > 0 && pairs === 0) {
        m[b] = (cSlot << 4) | kind;
        m[b + 1] = zeroId(level);
        m[b + 2] = parentRc;
        m[b + 3] = 0;
        b += 4;
        cSlot += 1;
        cLeft -= 1;
        done += 1;
        len -= 1;
      }
    }
  }
}
