/**
 * Reclamation of a store's slots: the iterative free cascade, settling the
 * deferred releases, the nursery sweep of floating nodes, compaction of
 * dead pending entries, and the clean-up of writes that fail part way.
 *
 * Invariant (with `nodes/pool.ts`): a freed node's slot is recycled only when no
 * list holds it any more — its state is FREE plus the flag of every list
 * (PENDING, NURSERY, DEFERRED) that still does, and the last list to let go recycles
 * it. No list can therefore ever name a slot that was handed out again.
 * The soundness argument is in docs/CORE.md, "Reclamation".
 * @module
 */
import { IdList } from '../nodes/idList.js';
import { KIND_BRANCH, KIND_COUNT, KIND_RECORD_BASE, KIND_ZERO, MAX_WIDE_DEPTH, type NodeId } from '../nodes/ids.js';
import { FLAG_DEFERRED, FLAG_FREE, FLAG_LISTED, FLAG_NURSERY, FLAG_PENDING } from '../nodes/pool.js';
import type { FlushableStore } from '../hash/flushableStore.js';

/**
 * What reclamation works on: the store's pools and pending lists (as the
 * flush sees them), the nursery of floating nodes and the deferred
 * releases. `StoreBase` (storeBase.ts) has these members and calls the
 * functions here; owning the interface keeps this module from importing it.
 */
export interface ReclaimableStore extends FlushableStore {
  readonly nursery: IdList;
  readonly deferred: IdList;
  /** Lists a node with no holder in the nursery (see `StoreBase.float`). */
  float(id: NodeId): NodeId;
}

/** Dead pending entries tolerated before the pending lists are compacted. */
const DEAD_PENDING_THRESHOLD = 1 << 16;
/** Dirty heights are bytes (see storeBase.ts). */
const MAX_DIRTY_HEIGHT = 255;

/** Scratch stack of the cascade; the cascade never re-enters itself. */
const stack = new IdList(256);

/**
 * Frees `id` (whose count is zero) and, iteratively, every node only it held.
 * Hot on every commit (the replaced path of the old version) and on epoch
 * commits (a whole old contents subtree): a child that is not a branch is
 * freed on the spot instead of going through the stack, and the branch pool's
 * fields are read once, not per node.
 */
export function freeCascade(store: ReclaimableStore, id: NodeId): void {
  const pools = store.pools;
  const branches = store.branches;
  const bMeta = branches.meta;
  const bShift = branches.shift;
  const bMask = branches.mask;
  let dead = 0;
  stack.push(id);
  while (stack.length > 0) {
    const x = stack.pop();
    if ((x & 15) !== KIND_BRANCH) {
      dead += freeRow(store, x);
      continue;
    }
    const slot = x >>> 4;
    const m = bMeta[slot >>> bShift]!;
    const base = (slot & bMask) << 2;
    for (let c = 0; c < 2; c++) {
      const child = m[base + c]!;
      const kind = child & 15;
      if (kind === KIND_ZERO) continue;
      if (kind === KIND_BRANCH) {
        const cs = child >>> 4;
        if (--bMeta[cs >>> bShift]![((cs & bMask) << 2) + 2]! === 0) stack.push(child);
        continue;
      }
      const pool = pools[kind]!;
      const cs = child >>> 4;
      // Non-branch rows are [rc, state].
      if (--pool.meta[cs >>> pool.shift]![(cs & pool.mask) << 1]! === 0) dead += freeRow(store, child);
    }
    const st = m[base + 3]! | FLAG_FREE;
    branches.live--;
    if ((st & FLAG_PENDING) !== 0) dead++;
    if ((st & FLAG_LISTED) === 0) {
      m[base + 3] = FLAG_FREE;
      branches.recycle(slot);
    } else {
      m[base + 3] = st; // quarantined until its lists let go
    }
  }
  store.deadPending += dead;
  // Only a cascade that freed pending nodes can cross the threshold (and a deferred one, run from an
  // allocation inside a write, frees hashed versions only: it never compacts lists under a caller).
  if (dead > 0 && store.deadPending > DEAD_PENDING_THRESHOLD && store.deadPending * 2 > store.pendingEntries) compactPending(store);
}

/** Marks a childless node (count already zero) free; returns 1 if it was pending (a dead pending entry), else 0. */
function freeRow(store: ReclaimableStore, x: NodeId): number {
  const pool = store.pools[x & 15]!;
  const slot = x >>> 4;
  const m = pool.meta[slot >>> pool.shift]!;
  const at = ((slot & pool.mask) << 1) + 1;
  const st = m[at]! | FLAG_FREE;
  pool.live--;
  if ((st & FLAG_LISTED) === 0) {
    m[at] = FLAG_FREE;
    pool.recycle(slot);
  } else {
    m[at] = st; // quarantined until its lists let go
  }
  return (st & FLAG_PENDING) !== 0 ? 1 : 0;
}

/** Drops dead entries from the pending lists so their slots can be reused without a flush. */
function compactPending(store: ReclaimableStore): void {
  const compact = (list: IdList): void => {
    let k = 0;
    for (let i = 0; i < list.length; i++) {
      const id = list.items[i]!;
      if ((store.pools[id & 15]!.state(id >>> 4) & FLAG_FREE) !== 0) store.unlist(id, FLAG_PENDING);
      else list.items[k++] = id;
    }
    store.pendingEntries -= list.length - k;
    list.length = k;
  };
  for (const list of store.pendingByHeight) compact(list);
  for (const list of store.widePending) compact(list);
  for (const list of store.recordPending) compact(list);
  store.deadPending = 0;
}

/**
 * Frees the released roots whose freeing was deferred (`StoreBase.settle`),
 * each with everything only it held, unless something has taken it since.
 * Returns whether there was anything to do.
 */
export function settleDeferred(store: ReclaimableStore): boolean {
  if (store.deferred.length === 0) return false;
  freeUnheldListed(store, store.deferred, FLAG_DEFERRED);
  return true;
}

/** Frees every floating node that is still unheld (the nursery sweep). */
export function collectFloating(store: ReclaimableStore): void {
  freeUnheldListed(store, store.nursery, FLAG_NURSERY);
}

/**
 * Takes every node off `list` (listed under `flag`), freeing those that no
 * holder has taken since; a node already freed by another cascade has its
 * slot recycled once no other list names it. Freeing never lists anything
 * here, so one pass empties the list.
 */
function freeUnheldListed(store: ReclaimableStore, list: IdList, flag: number): void {
  for (let i = 0; i < list.length; i++) {
    const id = list.items[i]!;
    const pool = store.pools[id & 15]!;
    const slot = id >>> 4;
    const st = pool.state(slot);
    if ((st & FLAG_FREE) !== 0) {
      store.unlist(id, flag);
    } else {
      pool.setState(slot, st & ~flag);
      if (pool.rc(slot) === 0) freeCascade(store, id);
    }
  }
  list.clear();
  list.shrink(1024);
}

/**
 * Where the pending lists end now: the lists a write of `depth` levels can
 * append to (dirty heights up to max + depth + 1, the wide and the record lists).
 */
export function pendingMarks(store: ReclaimableStore, depth: number): number[] {
  const upto = Math.min(MAX_DIRTY_HEIGHT, store.maxPendingHeight + depth + 1);
  const marks = [upto];
  for (let h = 1; h <= upto; h++) marks.push(store.pendingByHeight[h]!.length);
  for (let d = 1; d <= MAX_WIDE_DEPTH; d++) marks.push(store.widePending[d]!.length);
  for (let k = KIND_RECORD_BASE; k < KIND_COUNT; k++) marks.push(store.recordPending[k]!.length);
  return marks;
}

/** Floats every unheld node listed after `marks`: the fragments of a write that failed part way. */
export function floatSince(store: ReclaimableStore, marks: readonly number[]): void {
  const upto = marks[0]!;
  const lists = [...store.pendingByHeight.slice(1, upto + 1), ...store.widePending.slice(1), ...store.recordPending.slice(KIND_RECORD_BASE)];
  lists.forEach((list, i) => {
    for (let j = Math.min(marks[i + 1]!, list.length); j < list.length; j++) {
      const id = list.items[j]!;
      const pool = store.pools[id & 15]!;
      if ((pool.state(id >>> 4) & FLAG_FREE) === 0 && pool.rc(id >>> 4) === 0) store.float(id);
    }
  });
}
