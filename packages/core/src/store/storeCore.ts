/**
 * `StoreCore`: every node of every tree built in it, as slots of per-kind
 * typed-array pools, with the lists that drive batched hashing. This module
 * makes, reads and hashes nodes; the pools, reference counts and
 * reclamation are `StoreBase`'s (storeBase.ts).
 *
 * Invariants this module keeps:
 * - A node no other holder can reach may be rewritten in place (write/inPlace.ts,
 *   counts prove it); every other node is immutable. A branch's hash is a
 *   pure function of its children, written by the flush.
 * - Every unhashed branch is listed in `pendingByHeight[dh]`, where
 *   dh = 1 + max(dh(children)) (hashed nodes have dh 0) — once, or, after an
 *   in-place rewrite raised its height, also lower down, where it is hashed
 *   early and harmlessly; every unhashed wide leaf is listed once in
 *   `widePending[depth]`, every unhashed record once in
 *   `recordPending[kind]`. Flushing heights 1, 2, 3, … after the wide leaves
 *   therefore always hashes a branch last with its children hashed.
 * @module
 */
import { CoreError } from '../errors.js';
import { flushPending } from '../hash/flush.js';
import { KIND_BRANCH, KIND_LEAF, KIND_OPAQUE, KIND_WIDE_BASE, KIND_ZERO, type NodeId } from '../nodes/ids.js';
import { FLAG_PENDING, type Pool } from '../nodes/pool.js';
import { MAX_DIRTY_HEIGHT, PAGE_SHIFT, StoreBase } from './storeBase.js';

export type { StoreStats } from './storeBase.js';

export class StoreCore extends StoreBase {
  // ---------------------------------------------------------- constructors

  /** A new leaf holding `chunk[offset, offset + 32)`. Internal: no checks, not floated. */
  newLeaf(chunk: Uint8Array, offset: number): NodeId {
    const pool = this.leaves;
    const slot = pool.alloc();
    const page = slot >>> PAGE_SHIFT;
    const off = slot & pool.mask;
    const h = pool.h8[page]!;
    const o = off << 5;
    for (let i = 0; i < 32; i++) h[o + i] = chunk[offset + i]!;
    const m = pool.meta[page]!;
    m[off << 1] = 0;
    m[(off << 1) + 1] = 0;
    return (slot << 4) | KIND_LEAF;
  }

  /** `newLeaf` from 8 words at `words[offset]` (word copies). Internal. */
  newLeafFromWords(words: Int32Array, offset: number): NodeId {
    const pool = this.leaves;
    const slot = pool.alloc();
    const page = slot >>> PAGE_SHIFT;
    const off = slot & pool.mask;
    const h = pool.h32[page]!;
    const o = off << 3;
    for (let i = 0; i < 8; i++) h[o + i] = words[offset + i]!;
    const m = pool.meta[page]!;
    m[off << 1] = 0;
    m[(off << 1) + 1] = 0;
    return (slot << 4) | KIND_LEAF;
  }

  /** A new opaque node (a known hash with unknown contents). Internal. */
  newOpaque(hash: Uint8Array, offset: number): NodeId {
    const pool = this.opaques;
    const slot = pool.alloc();
    const off = slot & pool.mask;
    pool.h8[slot >>> pool.shift]!.set(hash.subarray(offset, offset + 32), off << 5);
    pool.setRc(slot, 0);
    pool.setState(slot, 0);
    return (slot << 4) | KIND_OPAQUE;
  }

  /**
   * A new unhashed branch. Internal: links are trusted. Retains both
   * children and lists the branch for hashing at its dirty height.
   */
  newBranch(left: NodeId, right: NodeId): NodeId {
    const pool = this.branches;
    const metaPages = pool.meta;
    const mask = pool.mask;
    let dh = 0;
    // Children first: their rows are read anyway (count, dirty height).
    if ((left & 15) === KIND_BRANCH) {
      const s = left >>> 4;
      const lm = metaPages[s >>> PAGE_SHIFT]!;
      const lb = (s & mask) << 2;
      lm[lb + 2]!++;
      dh = lm[lb + 3]! >>> 8;
    } else if ((left & 15) !== KIND_ZERO) this.retainUnchecked(left);
    if ((right & 15) === KIND_BRANCH) {
      const s = right >>> 4;
      const rm = metaPages[s >>> PAGE_SHIFT]!;
      const rb = (s & mask) << 2;
      rm[rb + 2]!++;
      const r = rm[rb + 3]! >>> 8;
      if (r > dh) dh = r;
    } else if ((right & 15) !== KIND_ZERO) this.retainUnchecked(right);
    if (dh === MAX_DIRTY_HEIGHT) {
      // A chain of 255 unhashed levels: hash it now rather than widen the field.
      this.flush();
      dh = 0;
    }
    dh++;
    const slot = pool.alloc();
    const m = metaPages[slot >>> PAGE_SHIFT]!;
    const b = (slot & mask) << 2;
    m[b] = left;
    m[b + 1] = right;
    m[b + 2] = 0;
    m[b + 3] = FLAG_PENDING | (dh << 8);
    const id = (slot << 4) | KIND_BRANCH;
    this.pendingByHeight[dh]!.push(id);
    this.pendingEntries++;
    if (dh > this.maxPendingHeight) this.maxPendingHeight = dh;
    return id;
  }

  /** A new unhashed wide leaf of inner depth `depth` from `data[offset, offset + 32·2^depth)`. Internal. */
  newWide(depth: number, data: Uint8Array, offset: number): NodeId {
    const kind = KIND_WIDE_BASE + depth - 1;
    const pool = this.pools[kind]!;
    const slot = pool.alloc();
    const page = slot >>> pool.shift;
    const off = slot & pool.mask;
    const bytes = 32 << depth;
    const d8 = pool.d8[page]!;
    // A byte loop, not set(subarray()): no view object per wide leaf (bulk writes make tens of thousands).
    for (let i = 0, o = off * bytes; i < bytes; i++) d8[o + i] = data[offset + i]!;
    return this.listNewWide(pool, slot, kind, depth);
  }

  /** `newWide` from 32-bit words at `words[offset]` (word copies: bulk page writes). Internal. */
  newWideFromWords(depth: number, words: Int32Array, offset: number): NodeId {
    const kind = KIND_WIDE_BASE + depth - 1;
    const pool = this.pools[kind]!;
    const slot = pool.alloc();
    const n = 8 << depth;
    const d32 = pool.d32[slot >>> pool.shift]!;
    for (let i = 0, o = (slot & pool.mask) * n; i < n; i++) d32[o + i] = words[offset + i]!;
    return this.listNewWide(pool, slot, kind, depth);
  }

  /** Marks a freshly filled wide-leaf slot unheld and unhashed, and lists it for the next flush. */
  private listNewWide(pool: Pool, slot: number, kind: number, depth: number): NodeId {
    pool.setRc(slot, 0);
    pool.setState(slot, FLAG_PENDING);
    const id = (slot << 4) | kind;
    this.widePending[depth]!.push(id);
    this.pendingEntries++;
    return id;
  }

  // --------------------------------------------------------------- reading

  /** Left child of a branch or of a zero subtree of depth > 0. */
  leftOf(id: NodeId): NodeId {
    if ((id & 15) === KIND_BRANCH) {
      const slot = id >>> 4;
      return this.branches.meta[slot >>> PAGE_SHIFT]![(slot & this.branches.mask) << 2]!;
    }
    return this.zeroChild(id);
  }

  /** Right child of a branch or of a zero subtree of depth > 0. */
  rightOf(id: NodeId): NodeId {
    if ((id & 15) === KIND_BRANCH) {
      const slot = id >>> 4;
      return this.branches.meta[slot >>> PAGE_SHIFT]![((slot & this.branches.mask) << 2) + 1]!;
    }
    return this.zeroChild(id);
  }

  private zeroChild(id: NodeId): NodeId {
    const kind = id & 15;
    if (kind === KIND_ZERO && id >>> 4 > 0) return ((id >>> 4) - 1) << 4;
    if (kind === KIND_OPAQUE) throw new CoreError('OPAQUE', `node ${id} is opaque: its children are not known`);
    throw new CoreError('NOT_BRANCH', `node ${id} has no children`);
  }

  /** Copies the node's 32-byte hash into `out` at `offset`, hashing pending nodes first. */
  hashInto(id: NodeId, out: Uint8Array, offset = 0): void {
    if (this.pendingEntries > 0) this.flush();
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    const o = (slot & pool.mask) << 5;
    out.set(pool.h8[slot >>> pool.shift]!.subarray(o, o + 32), offset);
  }

  /** True when two hashed nodes (leaves, zero chunks) hold the same 32 bytes. */
  sameHash(a: NodeId, b: NodeId): boolean {
    const pa = this.pools[a & 15]!;
    const pb = this.pools[b & 15]!;
    const sa = a >>> 4;
    const sb = b >>> 4;
    const wa = pa.h32[sa >>> pa.shift]!;
    const wb = pb.h32[sb >>> pb.shift]!;
    const oa = (sa & pa.mask) << 3;
    const ob = (sb & pb.mask) << 3;
    for (let i = 0; i < 8; i++) if (wa[oa + i] !== wb[ob + i]) return false;
    return true;
  }

  refCount(id: NodeId): number {
    return this.pools[id & 15]!.rc(id >>> 4);
  }

  /**
   * Copies the 2^`innerDepth` chunks of a node stored as one record — a
   * wide leaf of that inner depth, a leaf (`innerDepth` 0) or the zero
   * subtree of that depth — into `out` from word `wordOffset`, and returns
   * true; returns false, copying nothing, for any other node. Internal: `id`
   * must be live and `out` long enough (packed views' page reads).
   */
  recordWordsInto(id: NodeId, innerDepth: number, out: Int32Array, wordOffset: number): boolean {
    const kind = id & 15;
    const words = 8 << innerDepth;
    if (kind === KIND_ZERO) {
      if (id >>> 4 !== innerDepth) return false;
      out.fill(0, wordOffset, wordOffset + words);
      return true;
    }
    const pool = this.pools[kind]!;
    const slot = id >>> 4;
    let src: Int32Array;
    if (innerDepth === 0 && kind === KIND_LEAF) src = pool.h32[slot >>> pool.shift]!;
    else if (innerDepth > 0 && kind === KIND_WIDE_BASE + innerDepth - 1) src = pool.d32[slot >>> pool.shift]!;
    else return false;
    const from = (slot & pool.mask) * words;
    for (let w = 0; w < words; w++) out[wordOffset + w] = src[from + w]!;
    return true;
  }

  /**
   * Copies the chunks of the wide leaves ids[0, count) of inner depth
   * `innerDepth` back to back into `out` from byte `offset`, one native copy
   * per run of neighbouring slots (a bulk build's pages sit in runs), and
   * returns true; returns false, copying nothing, when some id is not a
   * wide leaf of that depth. Internal: the ids must be live and `out` long
   * enough (packed views' load of every page: no walk of the level above).
   */
  widesInto(ids: Int32Array, count: number, innerDepth: number, out: Uint8Array, offset: number): boolean {
    if (innerDepth < 1 || innerDepth > 6) return false;
    const kind = KIND_WIDE_BASE + innerDepth - 1;
    for (let i = 0; i < count; i++) if ((ids[i]! & 15) !== kind) return false;
    const pool = this.pools[kind]!;
    const bytes = 32 << innerDepth;
    for (let i = 0; i < count; ) {
      const slot = ids[i]! >>> 4;
      const page = slot >>> pool.shift;
      const room = pool.mask + 1 - (slot & pool.mask);
      let end = i + 1;
      while (end < count && end - i < room && ids[end]! === ids[i]! + ((end - i) << 4)) end++;
      const from = (slot & pool.mask) * bytes;
      out.set(pool.d8[page]!.subarray(from, from + (end - i) * bytes), offset + i * bytes);
      i = end;
    }
    return true;
  }

  /** True when a chunk node holds the 32 bytes at `bytes[offset]`. */
  sameBytes(id: NodeId, bytes: Uint8Array, offset: number): boolean {
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    const h = pool.h8[slot >>> pool.shift]!;
    const o = (slot & pool.mask) << 5;
    for (let i = 0; i < 32; i++) if (h[o + i] !== bytes[offset + i]) return false;
    return true;
  }

  // --------------------------------------------------------------- hashing

  /** Hashes every pending node: wide leaves, then branches by dirty height. */
  flush(): void {
    if (this.pendingEntries > 0) flushPending(this);
  }
}
