/**
 * `StoreBase`: the pools and lists of a node store (see `nodes/pool.ts`) and the
 * lifetimes of its nodes — reference counts, the deferred releases and the
 * nursery. `StoreCore` (storeCore.ts) adds making, reading and hashing nodes.
 *
 * Invariants this module keeps:
 * - A node's reference count is the number of branches linking it plus the
 *   number of `retain` calls (tree handles). At zero it is freed, and its
 *   children are released iteratively (no recursion).
 * - A hashed branch released because a handle's root was replaced (the old
 *   version of a write or commit) or its handle disposed is not freed on the spot: it is listed in
 *   `deferred` and freed, with what only it held,
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
 * - A freed slot is recycled only once no list (pending, nursery, deferred)
 *   names it.
 * @module
 */
import { zeroHashInto } from '@ssztree/hasher';
import { CoreError } from '../errors.js';
import { IdList } from '../nodes/idList.js';
import { KIND_BRANCH, KIND_COUNT, KIND_LEAF, KIND_OPAQUE, KIND_RECORD_BASE, KIND_WIDE_BASE, KIND_ZERO, MAX_WIDE_DEPTH, MAX_ZERO_DEPTH, type NodeId } from '../nodes/ids.js';
import { FLAG_DEFERRED, FLAG_FREE, FLAG_LISTED, FLAG_NURSERY, FLAG_PENDING, Pool } from '../nodes/pool.js';
import { collectFloating, floatSince, freeCascade, pendingMarks, settleDeferred } from './reclaim.js';

/**
 * 2^15 slots per page: a 1 MiB hash page for branches and leaves, large
 * enough that a bulk build's level hashes in a handful of zero-copy calls,
 * small enough that a mostly empty last page wastes little.
 */
export const PAGE_SHIFT = 15;
/** Wide leaves: pages of about 256 KiB of chunk data. */
const WIDE_PAGE_DATA_SHIFT = 18;
/** Floating nodes listed before a sweep is scheduled. */
const NURSERY_SWEEP_THRESHOLD = 1 << 14;
/** Dirty heights are bytes; deeper unhashed chains are flushed first. */
export const MAX_DIRTY_HEIGHT = 255;

export interface StoreStats {
  /** Live nodes per kind (zero subtrees excluded). */
  readonly branches: number;
  readonly leaves: number;
  readonly opaques: number;
  readonly wides: number;
  /** Live records (wide/records.ts): serialized bytes plus root, one node each. */
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

export class StoreBase {
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
  /** Unhashed records by kind tag (wide/records.ts; indices below KIND_RECORD_BASE unused). */
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
    // Record kinds: empty placeholders until a record of the kind is made (wide/records.ts, `recordPool`).
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

  /** Removes a holder; frees the node (and, iteratively, what only it held) at zero. */
  release(id: NodeId): void {
    if (this.dropHolder(id)) this.freeCascade(id);
  }

  /**
   * Removes a holder whose version is being replaced (a handle's root
   * written or committed over) or dropped (`Tree.dispose()`). At zero the
   * node is freed like `release` does, except a hashed branch — the old
   * version's root — whose freeing is deferred to the next `settle()`: a
   * commit returns its new root, and a dispose returns, without first
   * walking the old version (the cost moves to the next task turn, or in a
   * loop that never yields to the next allocations; measured in
   * docs/CORE.md, "Deferred release").
   */
  releaseReplaced(id: NodeId): void {
    if (this.dropHolder(id)) this.releaseUnlinked(id);
  }

  /**
   * Frees, like `releaseReplaced` at zero, a node whose count an in-place
   * write (write/inPlace.ts) brought to zero — unless something has linked it
   * again since, or it is freed or listed for freeing already.
   */
  releaseUnlinked(id: NodeId): void {
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    const st = pool.state(slot);
    if (pool.rc(slot) !== 0 || (st & FLAG_FREE) !== 0) return;
    if ((id & 15) !== KIND_BRANCH || (st & FLAG_PENDING) !== 0) {
      this.freeCascade(id);
      return;
    }
    if ((st & FLAG_DEFERRED) !== 0) return; // listed already (taken again and released since)
    pool.setState(slot, st | FLAG_DEFERRED);
    this.deferred.push(id);
    if (this.deferred.length === 1) this.scheduleSweep();
  }

  /**
   * How many holders `id` has (links plus retains); zero subtrees count as
   * held without bound. What in-place writes (write/inPlace.ts) compare their
   * claims against.
   */
  holders(id: NodeId): number {
    if ((id & 15) === KIND_ZERO) return Number.POSITIVE_INFINITY;
    return this.pools[id & 15]!.rc(id >>> 4);
  }

  /**
   * Lists a leaf-like node (a wide leaf or a record) whose contents an
   * in-place write changed for hashing on `list`, unless it is listed
   * already (its listing then hashes the new contents).
   */
  relistChanged(id: NodeId, list: IdList): void {
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    const st = pool.state(slot);
    if ((st & FLAG_PENDING) !== 0) return;
    pool.setState(slot, st | FLAG_PENDING);
    list.push(id);
    this.pendingEntries++;
  }

  /** Checks `id`, decrements its count and says whether it reached zero (zero subtrees never do). */
  private dropHolder(id: NodeId): boolean {
    this.check(id);
    if ((id & 15) === KIND_ZERO) return false;
    const pool = this.pools[id & 15]!;
    const slot = id >>> 4;
    const m = pool.meta[slot >>> pool.shift]!;
    const at = (slot & pool.mask) * pool.stride + pool.rcAt;
    if (m[at]! <= 0) throw new CoreError('BAD_NODE', `node ${id} released more often than retained`);
    return --m[at]! === 0;
  }

  /**
   * Frees the replaced versions whose freeing was deferred (`releaseReplaced`),
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
