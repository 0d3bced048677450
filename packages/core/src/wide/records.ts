/**
 * Records: a small subtree of 2^d chunks stored as ONE node holding the
 * bytes the chunks are made from plus its cached root, instead of the
 * chunks themselves. How the bytes become chunks is the record kind's
 * layout (nodes/recordLayouts.ts); this module makes records, reads their
 * bytes and expands them into chunks.
 *
 * A record behaves as a wide leaf of its layout's depth everywhere generic
 * code looks at wide leaves (`wideLeaves.ts` expands it into chunks on
 * demand, hashing the long fields); a chunk write that its bytes can
 * express makes a new record, any other write a plain wide leaf.
 *
 * Invariants: a record's bytes never change after creation (except a pair
 * an in-place write owns, recordPairs.ts); its cached root equals
 * `merkleize` of its expanded chunks once flushed (hash/recordFlush.ts).
 * @module
 */
import { digest64 } from '@ssztree/hasher';
import { CoreError } from '../errors.js';
import type { NodeId } from '../nodes/ids.js';
import { FLAG_PENDING, pageView, Pool } from '../nodes/pool.js';
import { layoutFor, layoutOf, type Layout } from '../nodes/recordLayouts.js';
import type { StoreCore } from '../store/storeCore.js';

/** The store's pool for a record kind (made on first use: the layout may be registered after the store). */
export function recordPool(store: StoreCore, layout: Layout): Pool {
  let pool = store.pools[layout.kind]!;
  if (pool.dataBytes !== layout.size) {
    // Only the empty placeholder can differ: no node of this kind existed before its layout did.
    // Pages of about 256 KiB of record bytes.
    const shift = Math.max(2, Math.floor(Math.log2((1 << 18) / layout.size)));
    pool = new Pool({ kind: layout.kind, pageShift: shift, dataBytes: layout.size, reclaim: store.reclaimHook });
    store.pools[layout.kind] = pool;
  }
  return pool;
}

function list(store: StoreCore, id: NodeId, kind: number): void {
  store.recordPending[kind]!.push(id);
  store.pendingEntries++;
}

/** A new unhashed record of `kind` from `bytes[offset, offset + size)`. Internal: no checks, not floated. */
export function newRecord(store: StoreCore, layout: Layout, bytes: Uint8Array, offset: number): NodeId {
  const pool = recordPool(store, layout);
  const slot = pool.alloc();
  const size = layout.size;
  const d8 = pool.d8[slot >>> pool.shift]!;
  d8.set(bytes.subarray(offset, offset + size), (slot & pool.mask) * size);
  pool.setRc(slot, 0);
  pool.setState(slot, FLAG_PENDING);
  const id = (slot << 4) | layout.kind;
  list(store, id, layout.kind);
  return id;
}

/** Checked `newRecord`. */
export function createRecord(store: StoreCore, kind: number, bytes: Uint8Array, offset: number): NodeId {
  const layout = layoutFor(kind);
  if (!(bytes instanceof Uint8Array) || !Number.isInteger(offset) || offset < 0 || offset + layout.size > bytes.length) {
    throw new CoreError('BAD_INPUT', `record: need ${layout.size} bytes at offset ${offset}`);
  }
  return newRecord(store, layout, bytes, offset);
}

/**
 * `count` new unhashed records of `kind` from `bytes` at `offset`, back to
 * back (a serialized SSZ vector or list of the container): slots come in
 * runs, and each run is one copy. `out[at + i]` gets record i.
 */
export function createRecordRows(store: StoreCore, kind: number, bytes: Uint8Array, offset: number, count: number, out: NodeId[], at: number): void {
  const layout = layoutFor(kind);
  const size = layout.size;
  if (!(bytes instanceof Uint8Array) || !Number.isInteger(offset) || !Number.isInteger(count) || offset < 0 || count < 0 || offset + count * size > bytes.length) {
    throw new CoreError('BAD_INPUT', `record rows: ${count} records of ${size} bytes do not fit at offset ${offset}`);
  }
  if (count === 0) return;
  const pool = recordPool(store, layout);
  const pending = store.recordPending[kind]!;
  pool.placePendingRows(kind, bytes, offset, size, count, pending, out, at);
  store.pendingEntries += count;
}

/** The page and byte offset of a record's bytes. */
export function recordPage(store: StoreCore, id: NodeId): Uint8Array {
  const pool = store.pools[id & 15]!;
  return pool.d8[(id >>> 4) >>> pool.shift]!;
}
export function recordOffset(store: StoreCore, id: NodeId): number {
  const pool = store.pools[id & 15]!;
  return ((id >>> 4) & pool.mask) * pool.dataBytes;
}

/**
 * Writes record bytes `src[s, s + size)` as chunks into `rows[r, r + 32·2^d)`
 * (which must be zero): short fields in place, long fields zero-padded to
 * 64 bytes into `longs` at `l + 64·j` (which must be zero) for the caller
 * to hash into their chunks (`placeLongs`).
 */
export function spreadRecord(layout: Layout, src: DataView, s: number, rows: DataView, r: number, longs: DataView, l: number): void {
  const { offs, lens, chunks } = layout;
  let j = 0;
  for (let i = 0; i < offs.length; i++) {
    const len = lens[i]!;
    const from = s + offs[i]!;
    // Four bytes at a time (unaligned DataView access is fine), then the tail: the byte loop was the flush's main JS cost.
    const dst = len > 32 ? longs : rows;
    const to = len > 32 ? l + 64 * j++ : r + 32 * chunks[i]!;
    let b = 0;
    for (; b + 4 <= len; b += 4) dst.setUint32(to + b, src.getUint32(from + b, true), true);
    for (; b < len; b++) dst.setUint8(to + b, src.getUint8(from + b));
  }
}

/** Copies the expanded chunks of record `id` (32·2^d bytes) into `out` at `offset`. */
export function expandRecordInto(store: StoreCore, id: NodeId, out: Uint8Array, offset: number): void {
  const layout = layoutOf(id & 15)!;
  const bytes = 32 << layout.depth;
  out.fill(0, offset, offset + bytes);
  const longs = new Uint8Array(64 * layout.longs.length);
  spreadRecord(layout, pageView(recordPage(store, id)), recordOffset(store, id), new DataView(out.buffer, out.byteOffset, out.byteLength), offset, new DataView(longs.buffer), 0);
  for (let j = 0; j < layout.longs.length; j++) out.set(digest64(longs.subarray(64 * j, 64 * j + 64)), offset + 32 * layout.chunks[layout.longs[j]!]!);
}

/** Copies a record's bytes into `out` at `offset`. */
export function copyRecordBytes(store: StoreCore, id: NodeId, out: Uint8Array, offset: number): void {
  const size = layoutOf(id & 15)!.size;
  const page = recordPage(store, id);
  const o = recordOffset(store, id);
  // Past a few words a native copy wins over the byte loop (a validator pair's 242 bytes: ~2x, bench/serialize.ts).
  if (size > 64) out.set(page.subarray(o, o + size), offset);
  else for (let b = 0; b < size; b++) out[offset + b] = page[o + b]!;
}

/** Scratch for `recordWithChunks` (records are at most 64 KiB). */
let edit = new Uint8Array(256);

/**
 * Record `id` with chunk (positions[i] - base) replaced by the chunk of
 * nodes[i] (leaves or the zero chunk) for i in [lo, hi), when its bytes can
 * express every write: a short field's chunk with zero padding, a long
 * field's chunk equal to the current one, a zero chunk past the last field.
 * Returns `id` when nothing changes, -1 when a write cannot be expressed
 * (the caller makes a plain wide leaf instead).
 */
export function recordWithChunks(store: StoreCore, id: NodeId, positions: ArrayLike<number>, nodes: ArrayLike<NodeId>, lo: number, hi: number, base: number): NodeId {
  const layout = layoutOf(id & 15)!;
  const { offs, lens, size, fieldAt } = layout;
  if (edit.length < size) edit = new Uint8Array(size);
  copyRecordBytes(store, id, edit, 0);
  let longChunks: Uint8Array | null = null;
  let changed = false;
  for (let i = lo; i < hi; i++) {
    const node = nodes[i]!;
    const pool = store.pools[node & 15]!;
    const slot = node >>> 4;
    const h = pool.h8[slot >>> pool.shift]!;
    const o = (slot & pool.mask) << 5;
    const p = positions[i]! - base;
    const f = fieldAt[p]!;
    if (f < 0) {
      for (let b = 0; b < 32; b++) if (h[o + b] !== 0) return -1;
      continue;
    }
    const len = lens[f]!;
    if (len > 32) {
      if (longChunks === null) {
        longChunks = new Uint8Array(32 << layout.depth);
        expandRecordInto(store, id, longChunks, 0);
      }
      for (let b = 0; b < 32; b++) if (h[o + b] !== longChunks[32 * p + b]) return -1;
      continue;
    }
    for (let b = len; b < 32; b++) if (h[o + b] !== 0) return -1;
    const at = offs[f]!;
    for (let b = 0; b < len; b++) {
      if (edit[at + b] !== h[o + b]) {
        edit[at + b] = h[o + b]!;
        changed = true;
      }
    }
  }
  return changed ? newRecord(store, layout, edit, 0) : id;
}
