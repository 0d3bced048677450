/**
 * The flush of pending records (records.ts), kind by kind, in batches: each
 * record's bytes are spread into a row of 2^d chunks in staging, the long
 * fields of the whole batch are hashed by one `hashInto` and placed in their
 * chunks, then the rows fold d times in place, one `hashInto` per level for
 * the batch, leaving the roots contiguous to be copied into the hash slab.
 *
 * Invariant: on return every live listed record holds its root (=
 * `merkleize` of its expanded chunks) and no FLAG_PENDING; dead entries are
 * released; the record lists are empty.
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import type { IdList } from './idList.js';
import { KIND_COUNT, KIND_RECORD_BASE } from './ids.js';
import { FLAG_FREE, FLAG_PENDING } from './pool.js';
import { layoutOf, pageView, spreadRecord, type Layout } from './records.js';
import type { StoreCore } from './store.js';

/** Records per batch: rows of a depth-3 record are 256 B, so staging stays about 1 MiB. */
const BATCH = 4096;
let rows = new Uint8Array(1 << 16);
let rowsView = new DataView(rows.buffer);
let longs = new Uint8Array(1 << 14);
let longsView = new DataView(longs.buffer);

function grow(buf: Uint8Array<ArrayBuffer>, bytes: number): Uint8Array<ArrayBuffer> {
  return buf.length >= bytes ? buf : new Uint8Array(Math.max(bytes, 2 * buf.length));
}

export function flushRecords(store: StoreCore): void {
  for (let kind = KIND_RECORD_BASE; kind < KIND_COUNT; kind++) {
    const list = store.recordPending[kind]!;
    if (list.length > 0) flushKind(store, layoutOf(kind)!, list);
  }
}

function flushKind(store: StoreCore, layout: Layout, list: IdList): void {
  const pool = store.pools[layout.kind]!;
  const items = list.items;
  // Live entries only (compacted in place); dead ones let go of their slot.
  let n = 0;
  for (let i = 0; i < list.length; i++) {
    const id = items[i]!;
    if ((pool.state(id >>> 4) & FLAG_FREE) !== 0) store.unlist(id, FLAG_PENDING);
    else items[n++] = id;
  }
  for (let first = 0; first < n; first += BATCH) flushBatch(store, layout, items, first, Math.min(n, first + BATCH));
  list.clear();
  list.shrink(1024);
  if (rows.length > 1 << 22) {
    rows = new Uint8Array(1 << 16);
    rowsView = new DataView(rows.buffer);
  }
}

function flushBatch(store: StoreCore, layout: Layout, items: Int32Array, first: number, last: number): void {
  const pool = store.pools[layout.kind]!;
  const n = last - first;
  const depth = layout.depth;
  const stride = 32 << depth;
  const nl = layout.longs.length;
  if (rows.length < n * stride) {
    rows = grow(rows, n * stride);
    rowsView = new DataView(rows.buffer);
  }
  if (longs.length < 64 * nl * n) {
    longs = grow(longs, 64 * nl * n);
    longsView = new DataView(longs.buffer);
  }
  rows.fill(0, 0, n * stride);
  if (nl > 0) longs.fill(0, 0, 64 * nl * n);
  const shift = pool.shift;
  const mask = pool.mask;
  const size = layout.size;
  for (let k = 0; k < n; k++) {
    const slot = items[first + k]! >>> 4;
    spreadRecord(layout, pageView(pool.d8[slot >>> shift]!), (slot & mask) * size, rowsView, k * stride, longsView, 64 * nl * k);
  }
  if (nl > 0) {
    // Every long field of the batch in one call; digest k·nl + j goes to row k, chunk longs[j].
    hashInto(longs.subarray(0, 64 * nl * n), longs.subarray(0, 32 * nl * n));
    for (let k = 0; k < n; k++) {
      for (let j = 0; j < nl; j++) {
        const from = 32 * (k * nl + j);
        const to = k * stride + 32 * layout.longs[j]!;
        for (let b = 0; b < 32; b += 4) rowsView.setUint32(to + b, longsView.getUint32(from + b, true), true);
      }
    }
  }
  let bytes = n * stride;
  for (let level = 0; level < depth; level++, bytes >>>= 1) hashInto(rows.subarray(0, bytes), rows.subarray(0, bytes >>> 1));
  const rw = new Int32Array(rows.buffer, 0, 8 * n);
  for (let k = 0; k < n; k++) {
    const slot = items[first + k]! >>> 4;
    const w = pool.h32[slot >>> shift]!;
    const o = (slot & mask) << 3;
    for (let j = 0; j < 8; j++) w[o + j] = rw[8 * k + j]!;
    pool.setState(slot, pool.state(slot) & ~FLAG_PENDING);
  }
}
