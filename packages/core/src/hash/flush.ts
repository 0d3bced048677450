/**
 * The batched flush: hashes every pending node of a store, wide leaves first,
 * then branches level by level in increasing dirty height.
 *
 * Per level: the children's hashes are gathered into one contiguous staging
 * buffer with 32-bit word copies (no per-node `Uint8Array`, no per-node
 * hasher call), the level is hashed by one `hashInto` call in place (each
 * digest lands on the front half of the staging buffer), and the digests are
 * scattered back into the branches' hash pages with word copies.
 *
 * Records (recordFlush.ts) come first, kind by kind. Wide leaves of one
 * inner depth d are hashed together, in batches of up to 1 MiB of blocks:
 * their blocks are copied into staging back to back and folded d times in
 * place, one `hashInto` per fold across the batch, leaving their roots
 * contiguous.
 *
 * Invariant: on return, no live node has dh > 0 or FLAG_PENDING, every
 * pending list is empty, and every dead entry's slot has been released to its
 * free list (or waits on the nursery).
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import type { IdList } from '../nodes/idList.js';
import { FLAG_FREE, FLAG_PENDING, type Pool } from '../nodes/pool.js';
import { flushRecords } from './recordFlush.js';
import type { FlushableStore } from './flushableStore.js';

/** Staging kept between flushes below this size; buffers this large or larger are dropped after use. */
const RETAINED_STAGING_BYTES = 1 << 22;

export function flushPending(store: FlushableStore): void {
  flushRecords(store);
  for (let d = 1; d < store.widePending.length; d++) {
    const list = store.widePending[d]!;
    if (list.length > 0) flushWide(store, list, d);
  }
  for (let h = 1; h <= store.maxPendingHeight; h++) {
    const list = store.pendingByHeight[h]!;
    if (list.length > 0) flushLevel(store, list);
  }
  store.maxPendingHeight = 0;
  store.pendingEntries = 0;
  store.deadPending = 0;
  trimStaging(store);
}

/** Drops a staging buffer that a large pass grew to RETAINED_STAGING_BYTES or more (back to 64 KiB). */
export function trimStaging(store: FlushableStore): void {
  if (store.staging.byteLength >= RETAINED_STAGING_BYTES) store.staging = new Uint8Array(1 << 16);
}

/** The store's staging buffer, grown (by doubling) to at least `bytes`. */
export function staging(store: FlushableStore, bytes: number): Uint8Array {
  if (store.staging.byteLength < bytes) {
    let size = store.staging.byteLength;
    while (size < bytes) size *= 2;
    store.staging = new Uint8Array(size);
  }
  return store.staging;
}

/** Keeps the live entries of `list` (compacted in place), recycling the dead. */
function liveEntries(store: FlushableStore, list: IdList, pool: Pool): number {
  const items = list.items;
  const metaPages = pool.meta;
  const shift = pool.shift;
  const mask = pool.mask;
  const stride = pool.stride;
  const stAt = pool.stAt;
  let k = 0;
  for (let i = 0; i < list.length; i++) {
    const id = items[i]!;
    const slot = id >>> 4;
    if ((metaPages[slot >>> shift]![(slot & mask) * stride + stAt]! & FLAG_FREE) !== 0) store.unlist(id, FLAG_PENDING);
    else items[k++] = id;
  }
  return k;
}

/**
 * One dirty level of branches: gathered, hashed by one `hashInto`, scattered.
 * The two loops are functions of their own: as one function, V8 only ever
 * compiled it by on-stack replacement inside a loop (its first calls are
 * large), and that code bailed out after each loop, every level of every
 * block (`--trace-deopt`: ~2.5 bail-outs a block, "insufficient type
 * feedback" at the code after the loops).
 */
function flushLevel(store: FlushableStore, list: IdList): void {
  const total = list.length;
  const st8 = staging(store, 64 * total);
  const st = new Int32Array(st8.buffer, 0, 16 * total);
  const n = gatherLevel(store, list, st);
  hashInto(st8.subarray(0, 64 * n), st8.subarray(0, 32 * n));
  scatterLevel(store, list.items, n, st);
  list.clear();
  list.shrink(1024);
}

/**
 * Gathers the children's hashes of the live branches on `list`, pair by pair
 * into `st` (16 words a branch), compacting the list to them; dead entries
 * are dropped (and their slots released) in the same pass. Returns how many
 * are live.
 */
function gatherLevel(store: FlushableStore, list: IdList, st: Int32Array): number {
  const branches = store.branches;
  const items = list.items;
  const total = list.length;
  const pools = store.pools;
  const metaPages = branches.meta;
  const shift = branches.shift;
  const mask = branches.mask;
  let n = 0;
  for (let i = 0; i < total; i++) {
    const id = items[i]!;
    const slot = id >>> 4;
    const m = metaPages[slot >>> shift]!;
    const b = (slot & mask) << 2;
    if ((m[b + 3]! & FLAG_FREE) !== 0) {
      store.unlist(id, FLAG_PENDING);
      continue;
    }
    items[n] = id;
    let d = n << 4;
    n++;
    let child = m[b]!;
    let cp = pools[child & 15]!;
    let cs = child >>> 4;
    let w = cp.h32[cs >>> cp.shift]!;
    let o = (cs & cp.mask) << 3;
    st[d] = w[o]!;
    st[d + 1] = w[o + 1]!;
    st[d + 2] = w[o + 2]!;
    st[d + 3] = w[o + 3]!;
    st[d + 4] = w[o + 4]!;
    st[d + 5] = w[o + 5]!;
    st[d + 6] = w[o + 6]!;
    st[d + 7] = w[o + 7]!;
    d += 8;
    child = m[b + 1]!;
    cp = pools[child & 15]!;
    cs = child >>> 4;
    w = cp.h32[cs >>> cp.shift]!;
    o = (cs & cp.mask) << 3;
    st[d] = w[o]!;
    st[d + 1] = w[o + 1]!;
    st[d + 2] = w[o + 2]!;
    st[d + 3] = w[o + 3]!;
    st[d + 4] = w[o + 4]!;
    st[d + 5] = w[o + 5]!;
    st[d + 6] = w[o + 6]!;
    st[d + 7] = w[o + 7]!;
  }
  return n;
}

/** Scatters the digests at the front of `st` into the first `n` branches' hash pages; they are hashed now. */
function scatterLevel(store: FlushableStore, items: Int32Array, n: number, st: Int32Array): void {
  const branches = store.branches;
  const metaPages = branches.meta;
  const shift = branches.shift;
  const mask = branches.mask;
  const hashPages = branches.h32;
  for (let i = 0, s = 0; i < n; i++, s += 8) {
    const slot = items[i]! >>> 4;
    const page = slot >>> shift;
    const off = slot & mask;
    const w = hashPages[page]!;
    const o = off << 3;
    w[o] = st[s]!;
    w[o + 1] = st[s + 1]!;
    w[o + 2] = st[s + 2]!;
    w[o + 3] = st[s + 3]!;
    w[o + 4] = st[s + 4]!;
    w[o + 5] = st[s + 5]!;
    w[o + 6] = st[s + 6]!;
    w[o + 7] = st[s + 7]!;
    // Dirty height back to 0 and off the pending list.
    const m = metaPages[page]!;
    m[(off << 2) + 3] = m[(off << 2) + 3]! & 0xff & ~FLAG_PENDING;
  }
}

/** Wide leaves hashed per batch: keeps the staging buffer at ~1.5 MiB however many are pending (a 2^18-record build would need 64 MiB at once). */
const WIDE_BATCH_BYTES = 1 << 20;
/** Wide leaves in a run of consecutive slots of one data page at least this long are hashed straight from the page. */
const DIRECT_RUN = 64;
/** Item positions of the copied blocks of a wide flush batch (grown as needed). */
let pendingCopy = new Int32Array(1024);

/** The end (at most `n`) of the run of consecutive slots (within one data page) that starts at items[i]. */
function runEnd(items: Int32Array, i: number, n: number, mask: number): number {
  const slot = items[i]! >>> 4;
  let end = i + 1;
  while (end < n && items[end]! >>> 4 === slot + (end - i) && ((slot + (end - i)) & mask) !== 0) end++;
  return end;
}

function flushWide(store: FlushableStore, list: IdList, depth: number): void {
  const kind = 4 + depth - 1;
  const pool = store.pools[kind]!;
  const n = liveEntries(store, list, pool);
  const per = Math.max(DIRECT_RUN, Math.floor(WIDE_BATCH_BYTES / (32 << depth)));
  for (let first = 0; first < n; first += per) flushWideBatch(store, pool, list.items, first, Math.min(n, first + per), depth);
  list.clear();
  list.shrink(1024);
}

/** Hashes the wide leaves items[first..last) and stores their roots (see flushWide). */
function flushWideBatch(store: FlushableStore, pool: Pool, items: Int32Array, first: number, last: number, depth: number): void {
  const n = last - first;
  const words = 8 << depth;
  const blockBytes = 4 * words;
  const shift = pool.shift;
  const mask = pool.mask;
  const half = blockBytes >>> 1;
  // Staging: every item's half-folded block first (n * half bytes), then the blocks that are copied.
  let copies = 0;
  for (let i = first; i < last; ) {
    const end = runEnd(items, i, last, mask);
    if (end - i < DIRECT_RUN) copies += end - i;
    i = end;
  }
  const st8 = staging(store, half * n + blockBytes * copies);
  const st = new Int32Array(st8.buffer, 0, st8.byteLength >>> 2);
  if (pendingCopy.length < copies) pendingCopy = new Int32Array(Math.max(copies, 2 * pendingCopy.length));

  // First fold: runs of consecutive slots (bulk writes allocate them so) are hashed straight from the
  // data page into staging, one call per run; the rest are copied into staging first. Either way, item
  // first+k's half-folded block lands at staging[k * blockBytes / 2].
  let i = first;
  let copied = 0;
  while (i < last) {
    const slot = items[i]! >>> 4;
    const end = runEnd(items, i, last, mask);
    if (end - i >= DIRECT_RUN) {
      const data = pool.d8[slot >>> shift]!;
      const o = (slot & mask) * blockBytes;
      hashInto(data.subarray(o, o + (end - i) * blockBytes), st8.subarray((i - first) * half, (end - first) * half));
      i = end;
      continue;
    }
    // Copied blocks go to the far end of staging (past every half-folded slot), folded below.
    for (; i < end; i++) {
      const s = items[i]! >>> 4;
      const d32 = pool.d32[s >>> shift]!;
      const from = (s & mask) * words;
      const to = (words >>> 1) * n + copied * words;
      for (let j = 0; j < words; j++) st[to + j] = d32[from + j]!;
      pendingCopy[copied++] = i - first;
    }
  }
  if (copied > 0) {
    // Fold the copied blocks in place, then move each half-folded block down to its item's place
    // (every destination lies below `base`, every source at or above it).
    const base = half * n;
    hashInto(st8.subarray(base, base + copied * blockBytes), st8.subarray(base, base + copied * half));
    const hw = words >>> 1;
    for (let k = 0; k < copied; k++) {
      const item = pendingCopy[k]!;
      const from = (base >>> 2) + k * hw;
      const to = item * hw;
      if (from !== to) for (let j = 0; j < hw; j++) st[to + j] = st[from + j]!;
    }
  }

  let bytes = half * n;
  for (let level = 1; level < depth; level++, bytes >>>= 1) {
    hashInto(st8.subarray(0, bytes), st8.subarray(0, bytes >>> 1));
  }

  for (let k = first, s = 0; k < last; k++, s += 8) {
    const slot = items[k]! >>> 4;
    const w = pool.h32[slot >>> shift]!;
    const o = (slot & mask) << 3;
    for (let j = 0; j < 8; j++) w[o + j] = st[s + j]!;
    pool.setState(slot, pool.state(slot) & ~FLAG_PENDING);
  }
}
