/**
 * Reclamation of a store's slots: the iterative free cascade, the nursery
 * sweep of floating nodes, compaction of dead pending entries, and the
 * clean-up of writes that fail part way.
 *
 * Invariant (with `pool.ts`): a freed node's slot is recycled only when no
 * list holds it any more — its state is FREE plus the flag of every list
 * (PENDING, NURSERY) that still does, and the last list to let go recycles
 * it. No list can therefore ever name a slot that was handed out again.
 * The soundness argument is in docs/CORE.md, "Reclamation".
 * @module
 */
import { IdList } from './idList.js';
import { KIND_BRANCH, KIND_COUNT, KIND_RECORD_BASE, KIND_ZERO, MAX_WIDE_DEPTH, type NodeId } from './ids.js';
import { FLAG_FREE, FLAG_NURSERY, FLAG_PENDING } from './pool.js';
import type { StoreCore } from './store.js';

/** Dead pending entries tolerated before the pending lists are compacted. */
const DEAD_PENDING_THRESHOLD = 1 << 16;
/** Dirty heights are bytes (see store.ts). */
const MAX_DIRTY_HEIGHT = 255;

/** Scratch stack of the cascade; the cascade never re-enters itself. */
const stack = new IdList(256);

/** Frees `id` (whose count is zero) and, iteratively, every node only it held. */
export function freeCascade(store: StoreCore, id: NodeId): void {
  const pools = store.pools;
  stack.push(id);
  while (stack.length > 0) {
    const x = stack.pop();
    const kind = x & 15;
    const pool = pools[kind]!;
    const slot = x >>> 4;
    const m = pool.meta[slot >>> pool.shift]!;
    const base = (slot & pool.mask) * pool.stride;
    if (kind === KIND_BRANCH) {
      releaseChild(store, m[base]!);
      releaseChild(store, m[base + 1]!);
    }
    const st = m[base + pool.stAt]! | FLAG_FREE;
    pool.live--;
    if ((st & FLAG_PENDING) !== 0) store.deadPending++;
    if ((st & (FLAG_PENDING | FLAG_NURSERY)) === 0) {
      m[base + pool.stAt] = FLAG_FREE;
      pool.recycle(slot);
    } else {
      m[base + pool.stAt] = st; // quarantined until its lists let go
    }
  }
  if (store.deadPending > DEAD_PENDING_THRESHOLD && store.deadPending * 2 > store.pendingEntries) compactPending(store);
}

function releaseChild(store: StoreCore, child: NodeId): void {
  if ((child & 15) === KIND_ZERO) return;
  const pool = store.pools[child & 15]!;
  const slot = child >>> 4;
  const m = pool.meta[slot >>> pool.shift]!;
  const at = (slot & pool.mask) * pool.stride + pool.rcAt;
  if (--m[at]! === 0) stack.push(child);
}

/** Drops dead entries from the pending lists so their slots can be reused without a flush. */
function compactPending(store: StoreCore): void {
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

/** Frees every floating node that is still unheld (the nursery sweep). */
export function collectFloating(store: StoreCore): void {
  const list = store.nursery;
  // Freeing can cascade but never adds to the nursery, so one pass suffices.
  for (let i = 0; i < list.length; i++) {
    const id = list.items[i]!;
    const pool = store.pools[id & 15]!;
    const slot = id >>> 4;
    const st = pool.state(slot);
    if ((st & FLAG_FREE) !== 0) {
      store.unlist(id, FLAG_NURSERY);
    } else {
      pool.setState(slot, st & ~FLAG_NURSERY);
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
export function pendingMarks(store: StoreCore, depth: number): number[] {
  const upto = Math.min(MAX_DIRTY_HEIGHT, store.maxPendingHeight + depth + 1);
  const marks = [upto];
  for (let h = 1; h <= upto; h++) marks.push(store.pendingByHeight[h]!.length);
  for (let d = 1; d <= MAX_WIDE_DEPTH; d++) marks.push(store.widePending[d]!.length);
  for (let k = KIND_RECORD_BASE; k < KIND_COUNT; k++) marks.push(store.recordPending[k]!.length);
  return marks;
}

/** Floats every unheld node listed after `marks`: the fragments of a write that failed part way. */
export function floatSince(store: StoreCore, marks: readonly number[]): void {
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
