/**
 * The flush of pending records (wide/records.ts), kind by kind, in batches of
 * RECORD_BATCH: the batch is hashed by the layout's `RecordHasher`
 * (recordHash.ts) into contiguous roots, copied into each record's hash slot.
 *
 * Invariant: on return every live listed record holds its root (=
 * `merkleize` of its expanded chunks) and no FLAG_PENDING; dead entries are
 * released; the record lists are empty.
 * @module
 */
import type { IdList } from '../nodes/idList.js';
import { KIND_COUNT, KIND_RECORD_BASE } from '../nodes/ids.js';
import { recordHasher, RECORD_BATCH } from './recordHash.js';
import { FLAG_FREE, FLAG_PENDING, pageView } from '../nodes/pool.js';
import { layoutOf, type Layout } from '../nodes/recordLayouts.js';
import type { FlushableStore } from './flushableStore.js';

/** Roots of one batch, copied into each record's hash slot. */
const roots = new Uint8Array(32 * RECORD_BATCH);
const roots32 = new Int32Array(roots.buffer);

export function flushRecords(store: FlushableStore): void {
  for (let kind = KIND_RECORD_BASE; kind < KIND_COUNT; kind++) {
    const list = store.recordPending[kind]!;
    if (list.length > 0) flushKind(store, layoutOf(kind)!, list);
  }
}

function flushKind(store: FlushableStore, layout: Layout, list: IdList): void {
  const pool = store.pools[layout.kind]!;
  const items = list.items;
  // Live entries only (compacted in place); dead ones let go of their slot.
  let n = 0;
  for (let i = 0; i < list.length; i++) {
    const id = items[i]!;
    if ((pool.state(id >>> 4) & FLAG_FREE) !== 0) store.unlist(id, FLAG_PENDING);
    else items[n++] = id;
  }
  for (let first = 0; first < n; first += RECORD_BATCH) flushBatch(store, layout, items, first, Math.min(n, first + RECORD_BATCH));
  list.clear();
  list.shrink(1024);
}

function flushBatch(store: FlushableStore, layout: Layout, items: Int32Array, first: number, last: number): void {
  hashRecords(store, layout, items, first, last);
  const pool = store.pools[layout.kind]!;
  for (let k = first; k < last; k++) {
    const slot = items[k]! >>> 4;
    pool.setState(slot, pool.state(slot) & ~FLAG_PENDING);
  }
}

/**
 * Computes the roots of records items[first..last) (at most RECORD_BATCH,
 * all of `layout`'s kind) in one batch and stores each in its hash slot;
 * their flags are the caller's (the flush clears FLAG_PENDING, a fused
 * in-place write hashes records that were never listed).
 */
export function hashRecords(store: FlushableStore, layout: Layout, items: Int32Array, first: number, last: number): void {
  const pool = store.pools[layout.kind]!;
  const n = last - first;
  const shift = pool.shift;
  const mask = pool.mask;
  const size = layout.size;
  const hasher = recordHasher(layout);
  hasher.begin(n);
  for (let k = 0; k < n; k++) {
    const slot = items[first + k]! >>> 4;
    const page = pool.d8[slot >>> shift]!;
    hasher.spread(k, pageView(page), (slot & mask) * size, page);
  }
  hasher.finish(n, roots, 0);
  for (let k = 0; k < n; k++) {
    const slot = items[first + k]! >>> 4;
    const w = pool.h32[slot >>> shift]!;
    const o = (slot & mask) << 3;
    for (let j = 0; j < 8; j++) w[o + j] = roots32[8 * k + j]!;
  }
}

/**
 * The roots of `n` (at most RECORD_BATCH) records of `layout` lying back to
 * back in `bytes` from byte `from` (`view` a DataView of `bytes`, at its
 * offset), as words, root k at [8k, 8k + 8), in a scratch that the next
 * batch overwrites. For records just made from those bytes
 * (write/copiedRecords.ts): the batch is spread from the caller's buffer,
 * read in order and still in cache, instead of from the records' slots,
 * scattered over the pool.
 */
export function hashRecordRun(layout: Layout, bytes: Uint8Array, view: DataView, from: number, n: number): Int32Array {
  const hasher = recordHasher(layout);
  hasher.begin(n);
  hasher.spreadRun(view, bytes, from, n);
  hasher.finish(n, roots, 0);
  return roots32;
}

