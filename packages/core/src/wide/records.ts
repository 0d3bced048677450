/**
 * Records: a small subtree of 2^d chunks stored as ONE node holding the
 * bytes the chunks are made from (for SSZ: a fixed-size container's
 * serialization) plus its cached root, instead of the chunks themselves.
 *
 * A `RecordLayout` says how the bytes become chunks — pure merkleization,
 * nothing SSZ-specific: field i is bytes [offset, offset + length); a field
 * of at most 32 bytes is chunk i, zero-padded; a longer one (at most 64
 * bytes) is chunk i = the hash of its bytes zero-padded to 64; chunks past
 * the last field are zero. Layouts are registered process-wide, one kind tag
 * each (KIND_RECORD_BASE..15, at most 6); registering the same layout twice
 * gives the same kind, and when no tag is free registration returns -1 so
 * the caller keeps another representation (wide leaves).
 *
 * A base layout may also get a *pair* layout (`registerRecordPairs`,
 * recordPairs.ts): two records of the base back to back as one node one
 * level up, root H(root(A), root(B)) — the branch a list has above two
 * elements. Its fields are the base fields, then the base fields again s
 * bytes and 2^d chunks on; a layout keeps its fields' chunks (`chunks`,
 * `fieldAt`), its base kind and how many records it holds.
 *
 * A record behaves as a wide leaf of its layout's depth everywhere generic
 * code looks at wide leaves (`wide.ts` expands it into chunks on demand,
 * hashing the long fields); a chunk write that its bytes can express makes
 * a new record, any other write a plain wide leaf.
 *
 * Invariants: a kind's layout never changes once registered (a base
 * layout's `pair` is set once, from -1); a record's
 * bytes never change after creation; its cached root equals `merkleize` of
 * its expanded chunks once flushed (recordFlush.ts).
 * @module
 */
import { digest64 } from '@ssztree/hasher';
import { CoreError } from '../errors.js';
import { KIND_COUNT, KIND_DEPTH, KIND_RECORD_BASE, MAX_WIDE_DEPTH, type NodeId } from '../nodes/ids.js';
import { FLAG_PENDING, Pool } from '../nodes/pool.js';
import type { StoreCore } from '../store/storeCore.js';

/** How a record's bytes become its 2^depth chunks (see the module comment). */
export interface RecordLayout {
  /** Bytes per record. */
  readonly size: number;
  /** Inner depth d (1..6): the record stands for a subtree of 2^d chunks. */
  readonly depth: number;
  /** Field i as [offset, length] in the record's bytes: length 1..64; at most 2^depth fields. */
  readonly fields: readonly (readonly [number, number])[];
}

/** A registered layout in the flat form the hot loops read. */
export interface Layout {
  readonly kind: number;
  readonly size: number;
  readonly depth: number;
  readonly offs: Int32Array;
  readonly lens: Int32Array;
  /** Indices of the fields longer than 32 bytes (hashed into their chunk). */
  readonly longs: Int32Array;
  /** The chunk of field i (i for registered layouts; the second half of a pair starts at 2^(depth-1)). */
  readonly chunks: Int32Array;
  /** The field of chunk c, or -1 (a zero chunk). */
  readonly fieldAt: Int32Array;
  /** Pair layouts: the base kind, and the records held (2); -1 and 0 for other layouts. */
  readonly base: number;
  readonly halves: number;
  /** Base layouts: the kind of their pair once registered (`registerRecordPairs`), else -1. */
  pair: number;
}

const layouts: (Layout | undefined)[] = new Array<Layout | undefined>(KIND_COUNT).fill(undefined);
const byKey = new Map<string, number>();

function checkLayout(layout: RecordLayout): void {
  const { size, depth, fields } = layout;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_WIDE_DEPTH) throw new CoreError('BAD_INPUT', `record layout: depth ${depth} is outside 1..${MAX_WIDE_DEPTH}`);
  if (!Number.isInteger(size) || size < 1 || size > 1 << 16) throw new CoreError('BAD_INPUT', `record layout: size ${size} is outside 1..65536`);
  if (!Array.isArray(fields) || fields.length < 1 || fields.length > 1 << depth) {
    throw new CoreError('BAD_INPUT', `record layout: 1..${1 << depth} fields for depth ${depth}`);
  }
  for (const f of fields) {
    const [o, l] = f;
    if (!Number.isInteger(o) || !Number.isInteger(l) || o < 0 || l < 1 || l > 64 || o + l > size) {
      throw new CoreError('BAD_INPUT', `record layout: field [${String(o)}, ${String(l)}] is not 1..64 bytes inside ${size}`);
    }
  }
}

/**
 * The kind tag of `layout` (registered on first use, process-wide), or -1
 * when all record kinds are taken by other layouts.
 */
export function registerRecordLayout(layout: RecordLayout): number {
  checkLayout(layout);
  const key = `${layout.size}/${layout.depth}/${layout.fields.map(([o, l]) => `${o}:${l}`).join(',')}`;
  const known = byKey.get(key);
  if (known !== undefined) return known;
  const kind = KIND_RECORD_BASE + byKey.size;
  if (kind >= KIND_COUNT) return -1;
  install(kind, key, layout.size, layout.depth, layout.fields, layout.fields.map((_, i) => i), -1, 0);
  return kind;
}

/** Stores a checked layout under `kind` (fields[i] in chunk chunks[i]). */
function install(kind: number, key: string, size: number, depth: number, fields: readonly (readonly [number, number])[], chunks: readonly number[], base: number, halves: number): Layout {
  const fieldAt = new Int32Array(1 << depth).fill(-1);
  chunks.forEach((c, i) => (fieldAt[c] = i));
  const layout: Layout = {
    kind,
    size,
    depth,
    offs: Int32Array.from(fields, (f) => f[0]),
    lens: Int32Array.from(fields, (f) => f[1]),
    longs: Int32Array.from(fields.flatMap((f, i) => (f[1] > 32 ? [i] : []))),
    chunks: Int32Array.from(chunks),
    fieldAt,
    base,
    halves,
    pair: -1,
  };
  layouts[kind] = layout;
  byKey.set(key, kind);
  KIND_DEPTH[kind] = depth;
  return layout;
}

/**
 * Registers the pair layout of base record kind `kind` (see the module
 * comment) and returns its kind, or returns -1 — registering nothing — when
 * the base is too deep or too large to pair (depth 6, size over 32 KiB) or
 * no record kind is free: the caller then keeps single records. Idempotent.
 */
export function registerRecordPairs(kind: number): number {
  const base = layoutFor(kind);
  if (base.halves !== 0) throw new CoreError('BAD_INPUT', `record kind ${kind} is itself a pair layout`);
  if (base.pair >= 0) return base.pair;
  if (base.depth >= MAX_WIDE_DEPTH || 2 * base.size > 1 << 16) return -1;
  const pair = KIND_RECORD_BASE + byKey.size;
  if (pair >= KIND_COUNT) return -1;
  const fields = Array.from(base.offs, (o, i) => [o, base.lens[i]!] as const);
  const chunks = Array.from(base.chunks);
  const span = 1 << base.depth;
  const pairFields = [...fields, ...fields.map(([o, l]) => [o + base.size, l] as const)];
  install(pair, `pair:${kind}`, 2 * base.size, base.depth + 1, pairFields, [...chunks, ...chunks.map((c) => c + span)], kind, 2);
  base.pair = pair;
  return pair;
}

/** The pair kind registered for base record kind `kind` (`registerRecordPairs`), or -1 (none yet, or not a base kind). */
export function recordPairKind(kind: number): number {
  const layout = Number.isInteger(kind) ? layouts[kind] : undefined;
  return layout === undefined ? -1 : layout.pair;
}

/** The layout of a record kind, or undefined. */
export function layoutOf(kind: number): Layout | undefined {
  return layouts[kind];
}

/** Bytes a node occupies in its pool (zero subtrees: 0; see pool.ts). */
export function nodeByteSize(id: NodeId): number {
  const kind = id & 15;
  if (kind === 0) return 0;
  if (kind === 1) return 48;
  const layout = layouts[kind];
  if (layout !== undefined) return layout.size + 40;
  const d = KIND_DEPTH[kind]!;
  return d > 0 ? (32 << d) + 40 : 40;
}

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

function layoutFor(kind: number): Layout {
  const layout = Number.isInteger(kind) ? layouts[kind] : undefined;
  if (layout === undefined) throw new CoreError('BAD_INPUT', `no record layout has kind ${String(kind)}`);
  return layout;
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

/** DataViews of record pages, made once per page (no view object per record read). */
const pageViews = new WeakMap<Uint8Array, DataView>();
export function pageView(page: Uint8Array): DataView {
  let v = pageViews.get(page);
  if (v === undefined) {
    v = new DataView(page.buffer, page.byteOffset, page.byteLength);
    pageViews.set(page, v);
  }
  return v;
}

/** Copies the expanded chunks of record `id` (32·2^d bytes) into `out` at `offset`. */
export function expandRecordInto(store: StoreCore, id: NodeId, out: Uint8Array, offset: number): void {
  const layout = layouts[id & 15]!;
  const bytes = 32 << layout.depth;
  out.fill(0, offset, offset + bytes);
  const longs = new Uint8Array(64 * layout.longs.length);
  spreadRecord(layout, pageView(recordPage(store, id)), recordOffset(store, id), new DataView(out.buffer, out.byteOffset, out.byteLength), offset, new DataView(longs.buffer), 0);
  for (let j = 0; j < layout.longs.length; j++) out.set(digest64(longs.subarray(64 * j, 64 * j + 64)), offset + 32 * layout.chunks[layout.longs[j]!]!);
}

/** Copies a record's bytes into `out` at `offset`. */
export function copyRecordBytes(store: StoreCore, id: NodeId, out: Uint8Array, offset: number): void {
  const size = layouts[id & 15]!.size;
  const page = recordPage(store, id);
  const o = recordOffset(store, id);
  for (let b = 0; b < size; b++) out[offset + b] = page[o + b]!;
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
  const layout = layouts[id & 15]!;
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
