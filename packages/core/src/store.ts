/**
 * `StoreCore`: every node of every tree built in it, as slots of per-kind
 * typed-array pools (see `pool.ts`), with reference counts and the lists
 * that drive batched hashing and reclamation.
 *
 * Invariants this module keeps:
 * - Nodes are immutable once created. A branch's links never change; its hash
 *   is written once, by the flush, and is a pure function of its children.
 * - Every unhashed branch is listed exactly once in `pendingByHeight[dh]`,
 *   where dh = 1 + max(dh(children)) (hashed nodes have dh 0); every unhashed
 *   wide leaf is listed once in `widePending[depth]`, every unhashed record
 *   once in `recordPending[kind]`. Flushing heights
 *   1, 2, 3, … after the wide leaves therefore always finds children hashed.
 * - A node's reference count is the number of branches linking it plus the
 *   number of `retain` calls (tree handles). At zero it is freed, and its
 *   children are released iteratively (no recursion).
 * - A released hashed branch (a version a handle let go of) is not freed on
 *   the spot: it is listed in `deferred` and freed, with what only it held,
 *   by `settle()` — in a macrotask, in `collect()` / `stats()`, or when a
 *   pool would otherwise grow. Reading the new root never waits for the old
 *   version's free, and no more than the versions released since the last
 *   settle are ever pending.
 * - A node created with no holder ("floating") is listed in the nursery and
 *   freed by the next sweep if it is still unheld. Sweeps run only at safe
 *   points: `collect()`, a scheduled macrotask, a FinalizationRegistry
 *   callback, or `Tree.dispose()` once the nursery is large
 *   (`sweepAtDispose`, skipped while a caller holds sweeps off) — never
 *   inside a synchronous write.
 * @module
 */
import { zeroHashInto } from '@ssztree/hasher';
import { CoreError } from './errors.js';
import { flushPending } from './hashing.js';
import { IdList } from './idList.js';
import { collectFloating, floatSince, freeCascade, pendingMarks, settleDeferred } from './reclaim.js';
import {
  KIND_BRANCH,
  KIND_COUNT,
  KIND_LEAF,
  KIND_OPAQUE,
  KIND_RECORD_BASE,
  KIND_WIDE_BASE,
  KIND_ZERO,
  MAX_WIDE_DEPTH,
  MAX_ZERO_DEPTH,
  type NodeId,
} from './ids.js';
import { FLAG_DEFERRED, FLAG_FREE, FLAG_LISTED, FLAG_NURSERY, FLAG_PENDING, Pool } from './pool.js';

/**
 * 2^15 slots per page: a 1 MiB hash page for branches and leaves, large
 * enough that a bulk build's level hashes in a handful of zero-copy calls,
 * small enough that a mostly empty last page wastes little.
 */
const PAGE_SHIFT = 15;
/** Wide leaves: pages of about 256 KiB of chunk data. */
const WIDE_PAGE_DATA_SHIFT = 18;
/** Floating nodes listed before a sweep is scheduled. */
const NURSERY_SWEEP_THRESHOLD = 1 << 14;
/** Dirty heights are bytes; deeper unhashed chains are flushed first. */
const MAX_DIRTY_HEIGHT = 255;

export interface StoreStats {
  /** Live nodes per kind (zero subtrees excluded). */
  readonly branches: number;
  readonly leaves: number;
  readonly opaques: number;
  readonly wides: number;
  /** Live records (records.ts): serialized bytes plus root, one node each. */
  readonly records: number;
  /** Live nodes in total. */
  readonly nodes: number;
  /** Bytes of typed-array storage held by the pools and lists. */
  readonly bytes: number;
  /** Unhashed nodes waiting for the next flush. */
  readonly pending: number;
  /** Floating nodes waiting for the next sweep. */
  readonly floating: number;
}

export class StoreCore {
  /** Pools indexed by kind tag. */
  readonly pools: Pool[] = [];
  readonly branches: Pool;
  readonly leaves: Pool;
  readonly opaques: Pool;
  readonly zeros: Pool;
  /** Unhashed branches by dirty height (index 0 unused). */
  readonly pendingByHeight: IdList[] = [];
  /** Unhashed wide leaves by inner depth (index 0 unused). */
  readonly widePending: IdList[] = [];
  /** Unhashed records by kind tag (records.ts; indices below KIND_RECORD_BASE unused). */
  readonly recordPending: IdList[] = [];
  maxPendingHeight = 0;
  /** Entries across all pending lists, dead ones included. */
  pendingEntries = 0;
  /** Pending entries whose node was freed before it was hashed. */
  deadPending = 0;
  readonly nursery = new IdList(1024);
  /** Released roots whose freeing is deferred to the next `settle()` (each listed once, FLAG_DEFERRED). */
  readonly deferred = new IdList(64);
  /** What pools call before growing (`PoolOptions.reclaim`). */
  readonly reclaimHook = (): boolean => this.settle();
  /** Shared staging buffer of the flush (grown per flush, trimmed after). */
  staging: Uint8Array = new Uint8Array(1 << 16);
  private sweepScheduled = false;
  /** Callers inside an operation that may hold floating ids across a dispose (`holdSweeps`). */
  private sweepHolds = 0;

  constructor() {
    const reclaim = this.reclaimHook;
    this.zeros = new Pool({ kind: KIND_ZERO, pageShift: 7 });
    this.branches = new Pool({ kind: KIND_BRANCH, pageShift: PAGE_SHIFT, links: true, reclaim });
    this.leaves = new Pool({ kind: KIND_LEAF, pageShift: PAGE_SHIFT, reclaim });
    this.opaques = new Pool({ kind: KIND_OPAQUE, pageShift: 10, reclaim });
    this.pools.push(this.zeros, this.branches, this.leaves, this.opaques);
    for (let d = 1; d <= MAX_WIDE_DEPTH; d++) {
      const chunks = 1 << d;
      this.pools.push(new Pool({ kind: KIND_WIDE_BASE + d - 1, pageShift: WIDE_PAGE_DATA_SHIFT - 5 - d, chunks, reclaim }));
    }
    // Record kinds: empty placeholders until a record of the kind is made (records.ts, `recordPool`).
    for (let kind = KIND_RECORD_BASE; kind < KIND_COUNT; kind++) this.pools.push(new Pool({ kind, pageShift: 2 }));
    for (let kind = 0; kind < KIND_COUNT; kind++) this.recordPending.push(new IdList(kind < KIND_RECORD_BASE ? 1 : 16));
    for (let h = 0; h <= MAX_DIRTY_HEIGHT; h++) this.pendingByHeight.push(new IdList(h === 0 ? 1 : 16));
    for (let d = 0; d <= MAX_WIDE_DEPTH; d++) this.widePending.push(new IdList(d === 0 ? 1 : 16));
    // Zero subtrees: slots 0..64 of the zero pool, pre-hashed, never freed.
    this.zeros.allocRuns(MAX_ZERO_DEPTH + 1);
    for (let d = 0; d <= MAX_ZERO_DEPTH; d++) zeroHashInto(d, this.zeros.h8[0]!, 32 * d);
  }

  // ---------------------------------------------------------------- checks

  /** Throws `BAD_NODE` unless `id` names a live node of this store. */
  check(id: NodeId): void {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff) throw new CoreError('BAD_NODE', `not a node id: ${String(id)}`);
    const kind = id & 15;
    const slot = id >>> 4;
    if (kind >= KIND_COUNT) throw new CoreError('BAD_NODE', `node ${id}: unknown kind ${kind}`);
    const pool = this.pools[kind]!;
    if (slot >= pool.top || (pool.state(slot) & FLAG_FREE) !== 0) {
      throw new CoreError('BAD_NODE', `node ${id} is not live in this store`);
    }
  }

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

  // --------------------------------------------------------------- hashing

  /** Hashes every pending node: wide leaves, then branches by dirty height. */
  flush(): void {
    if (this.pendingEntries > 0) flushPending(this);
  }

  // ------------------------------------------------------------ lifetimes

  /** Adds a holder to a live node. */
  retain(id: NodeId): void {
    this.check(id);
    if ((id & 15) !== KIND_ZERO) this.retainUnchecked(id);
  }

  retainUnchecked(id: NodeId): void {
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.rcAt]!++;
  }

  /**
   * Removes a holder. At zero the node is freed with, iteratively, what only
   * it held: right away for anything but a hashed branch; a hashed branch —
   * the root of a version a handle let go of — is deferred to the next
   * `settle()` instead, so that a commit returns its new root without first
   * walking the old version (the cost moves, measured in docs/CORE.md).
   */
  release(id: NodeId): void {
    this.check(id);
    const kind = id & 15;
    if (kind === KIND_ZERO) return;
    const pool = this.pools[kind]!;
    const slot = id >>> 4;
    const m = pool.meta[slot >>> pool.shift]!;
    const row = (slot & pool.mask) * pool.stride;
    const at = row + pool.rcAt;
    if (m[at]! <= 0) throw new CoreError('BAD_NODE', `node ${id} released more often than retained`);
    if (--m[at]! !== 0) return;
    const st = m[row + pool.stAt]!;
    if (kind !== KIND_BRANCH || (st & FLAG_PENDING) !== 0) {
      this.freeCascade(id);
      return;
    }
    if ((st & FLAG_DEFERRED) !== 0) return; // listed already (taken again and released since)
    m[row + pool.stAt] = st | FLAG_DEFERRED;
    this.deferred.push(id);
    if (this.deferred.length === 1) this.scheduleSweep();
  }

  /**
   * Frees the released versions whose freeing was deferred (see `release`),
   * and says whether there were any. Always safe: it frees only nodes no
   * handle, branch or floating list holds, which `release` would have freed
   * on the spot. Runs in a macrotask after a release, in `collect()` and
   * `stats()`, and when a pool would otherwise grow.
   */
  settle(): boolean {
    return settleDeferred(this);
  }

  /**
   * Lists a node with no holder in the nursery, so that the next sweep frees
   * it unless a tree or branch has taken it by then.
   */
  float(id: NodeId): NodeId {
    if ((id & 15) === KIND_ZERO) return id;
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    const st = pool.state(slot);
    if (pool.rc(slot) === 0 && (st & (FLAG_NURSERY | FLAG_FREE)) === 0) {
      pool.setState(slot, st | FLAG_NURSERY);
      this.nursery.push(id);
      if (this.nursery.length >= NURSERY_SWEEP_THRESHOLD) this.scheduleSweep();
    }
    return id;
  }

  /** Frees a node nobody holds right away (internal scratch nodes). */
  dropIfUnheld(id: NodeId): void {
    if ((id & 15) === KIND_ZERO) return;
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    if (pool.rc(slot) === 0 && (pool.state(slot) & FLAG_FREE) === 0) this.freeCascade(id);
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

  /** True when a chunk node holds the 32 bytes at `bytes[offset]`. */
  sameBytes(id: NodeId, bytes: Uint8Array, offset: number): boolean {
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    const h = pool.h8[slot >>> pool.shift]!;
    const o = (slot & pool.mask) << 5;
    for (let i = 0; i < 32; i++) if (h[o + i] !== bytes[offset + i]) return false;
    return true;
  }

  /** Takes a node off a list (`flag`); recycles its slot if it is free and listed nowhere else. */
  unlist(id: NodeId, flag: number): void {
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    const st = pool.state(slot) & ~flag;
    if ((st & FLAG_FREE) !== 0 && (st & FLAG_LISTED) === 0) {
      pool.setState(slot, FLAG_FREE);
      pool.recycle(slot);
    } else {
      pool.setState(slot, st);
    }
  }

  /** Frees `id` (whose count is zero) and every node only it held, iteratively. */
  freeCascade(id: NodeId): void {
    freeCascade(this, id);
  }

  /** Where the pending lists end now (see `floatSince`). */
  pendingMarks(depth: number): number[] {
    return pendingMarks(this, depth);
  }

  /** Floats every unheld node listed after `marks`: the fragments of a write that failed part way. */
  floatSince(marks: readonly number[]): void {
    floatSince(this, marks);
  }

  /**
   * Frees every floating node that is still unheld, and the deferred
   * releases (`settle`). Call only at a safe point: an unattached id created
   * before the sweep is invalid after it.
   */
  collect(): void {
    this.settle();
    collectFloating(this);
  }

  /**
   * The synchronous safe point of `Tree.dispose()`: sweeps the nursery unless
   * a caller holds sweeps off. A program that builds and disposes versions in
   * a synchronous loop never gives the scheduled sweep a task turn; without
   * this its nursery would pin every freed node's slot (quarantined while
   * listed) and the pools would grow each round. No size threshold: bulk
   * builds float only a handful of nodes (a list's root and length leaf), and
   * a few pinned slots per round were enough to break the free runs the next
   * build asks for, so a threshold let the branch pool creep by a page every
   * few dozen rounds. A sweep costs O(nursery) and empties it, so sweeping on
   * every dispose is still amortised: each float is swept once. After it,
   * floating ids created before the dispose are invalid (docs/CORE.md,
   * "Reclamation").
   */
  sweepAtDispose(): void {
    if (this.sweepHolds === 0 && this.nursery.length > 0) collectFloating(this);
  }

  /**
   * Holds dispose-time sweeps off until the matching `resumeSweeps()`
   * (nestable): for an operation that keeps floating ids in local variables
   * while it disposes trees (types' view commits dispose cached child views
   * between making a field's node and linking it). Scheduled and explicit
   * sweeps are not affected: they run between tasks or on request.
   */
  holdSweeps(): void {
    this.sweepHolds++;
  }

  /** Ends one `holdSweeps()`. */
  resumeSweeps(): void {
    if (this.sweepHolds > 0) this.sweepHolds--;
  }

  scheduleSweep(): void {
    if (this.sweepScheduled) return;
    this.sweepScheduled = true;
    const run = (): void => {
      this.sweepScheduled = false;
      this.collect();
    };
    // A macrotask: it can only run between tasks, never inside a write.
    if (typeof setImmediate === 'function') setImmediate(run);
    else setTimeout(run, 0);
  }

  // ----------------------------------------------------------------- stats

  /** Live figures, after freeing the deferred releases (`settle`): what is counted is what versions hold. */
  stats(): StoreStats {
    this.settle();
    let wides = 0;
    let records = 0;
    let bytes = this.nursery.byteLength + this.staging.byteLength;
    for (const pool of this.pools) {
      bytes += pool.byteLength();
      if (pool.chunks > 0) wides += pool.live;
      else if (pool.kind >= KIND_RECORD_BASE) records += pool.live;
    }
    for (const list of this.pendingByHeight) bytes += list.byteLength;
    for (const list of this.widePending) bytes += list.byteLength;
    for (const list of this.recordPending) bytes += list.byteLength;
    return {
      branches: this.branches.live,
      leaves: this.leaves.live,
      opaques: this.opaques.live,
      wides,
      records,
      nodes: this.branches.live + this.leaves.live + this.opaques.live + wides + records,
      bytes,
      pending: this.pendingEntries - this.deadPending,
      floating: this.nursery.length,
    };
  }
}
