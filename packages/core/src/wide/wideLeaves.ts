/**
 * Wide leaves: a whole small subtree of 2^d chunks (d = 1..6) stored as one
 * record — its chunks in one block of a data page, its root in the hash
 * slab — instead of 2^(d+1) - 1 nodes. Inner nodes are not stored; they are
 * recomputed on demand (for navigation and proofs) and the root is recomputed
 * by the batched flush when a new wide leaf is created.
 *
 * Wide leaves are immutable like every node: a write into one creates a new
 * wide leaf with the changed chunks (or, for writes of whole subtrees, expands
 * it into ordinary branches first).
 *
 * Invariant: the root cached in the hash slab equals `merkleize` of the
 * block once the wide leaf has been flushed.
 * @module
 */
import { merkleize } from '@ssztree/hasher';
import { buildFromChunks } from '../store/levels.js';
import { CoreError } from '../errors.js';
import { KIND_DEPTH, KIND_LEAF, KIND_RECORD_BASE, KIND_WIDE_BASE, MAX_WIDE_DEPTH, type NodeId } from '../nodes/ids.js';
import { FLAG_FREE } from '../nodes/pool.js';
import { expandPair, halfOf, pairLayout } from './recordPairs.js';
import { expandRecordInto, recordWithChunks } from './records.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/** The inner depth of a wide leaf or record, or 0 if `id` is neither. */
export function wideDepth(id: NodeId): number {
  return KIND_DEPTH[id & 15]!;
}

/** True for nodes that stand for one chunk: leaves and the zero chunk. */
export function isChunkNode(id: NodeId): boolean {
  return (id & 15) === KIND_LEAF || id === 0;
}

/** A new wide leaf from `chunks` (32·2^d bytes, d in 1..6). */
export function createWide(store: NodeStore, chunks: Uint8Array): NodeId {
  const count = chunks.length / 32;
  const depth = Math.log2(count);
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_WIDE_DEPTH) {
    throw new CoreError('BAD_INPUT', `a wide leaf holds 2..${1 << MAX_WIDE_DEPTH} chunks (a power of two), got ${chunks.length} bytes`);
  }
  return store.newWide(depth, chunks, 0);
}

/** Expanded chunks of the last record `block` was asked for (valid until the next call). */
const recordChunks = new Uint8Array(32 << MAX_WIDE_DEPTH);

/**
 * Where a wide leaf's chunks are: its data page, or for a record (records.ts)
 * a shared scratch it is expanded into — read it before the next call.
 */
export function block(store: NodeStore, id: NodeId): { data: Uint8Array; offset: number; bytes: number } {
  const depth = wideDepth(id);
  if ((id & 15) >= KIND_RECORD_BASE) {
    expandRecordInto(store, id, recordChunks, 0);
    return { data: recordChunks, offset: 0, bytes: 32 << depth };
  }
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  const bytes = 32 << depth;
  return { data: pool.d8[slot >>> pool.shift]!, offset: (slot & pool.mask) * bytes, bytes };
}

/** A copy of a wide leaf's chunks. */
export function readWideChunks(store: NodeStore, id: NodeId): Uint8Array {
  const b = block(store, id);
  return b.data.slice(b.offset, b.offset + b.bytes);
}

/** Chunk `index` of a wide leaf, copied into `out` at `offset`. */
export function readWideChunkInto(store: NodeStore, id: NodeId, index: number, out: Uint8Array, offset: number): void {
  const b = block(store, id);
  const o = b.offset + 32 * index;
  out.set(b.data.subarray(o, o + 32), offset);
}

/**
 * A wide leaf equal to `id` with chunk (positions[i] - base) replaced by the
 * chunk of nodes[i] for i in [lo, hi). Returns `id` itself when every write
 * stores the chunk already there.
 */
export function wideWithChunks(
  store: NodeStore,
  id: NodeId,
  positions: ArrayLike<number>,
  nodes: ArrayLike<NodeId>,
  lo: number,
  hi: number,
  base: number,
): NodeId {
  if ((id & 15) >= KIND_RECORD_BASE) {
    // A record stays a record when its bytes can say what was written; otherwise a plain wide leaf follows.
    const fresh = recordWithChunks(store, id, positions, nodes, lo, hi, base);
    if (fresh !== -1) return fresh;
  }
  const b = block(store, id);
  const words = new Int32Array(b.data.buffer, b.data.byteOffset + b.offset, b.bytes >>> 2);
  let changed = false;
  for (let i = lo; i < hi && !changed; i++) changed = !chunkEquals(store, nodes[i]!, words, 8 * (positions[i]! - base));
  if (!changed) return id;
  // Copied out of `b` (a record's scratch) before anything else can reuse it.
  const fresh = store.newWide(wideDepth(id), b.data, b.offset);
  const nb = block(store, fresh);
  for (let i = lo; i < hi; i++) {
    const node = nodes[i]!;
    const pool = store.pools[node & 15]!;
    const slot = node >>> 4;
    const o = (slot & pool.mask) << 5;
    nb.data.set(pool.h8[slot >>> pool.shift]!.subarray(o, o + 32), nb.offset + 32 * (positions[i]! - base));
  }
  return fresh;
}

function chunkEquals(store: NodeStore, node: NodeId, words: Int32Array, at: number): boolean {
  const pool = store.pools[node & 15]!;
  const slot = node >>> 4;
  const w = pool.h32[slot >>> pool.shift]!;
  const o = (slot & pool.mask) << 3;
  for (let j = 0; j < 8; j++) if (w[o + j] !== words[at + j]) return false;
  return true;
}

/**
 * The wide leaf as ordinary (hashed) branches and leaves, with no holder —
 * except a record pair: a branch over its halves as base records
 * (recordPairs.ts; unhashed until the next flush), so no half loses its bytes.
 */
export function expandWide(store: NodeStore, id: NodeId): NodeId {
  const pair = pairLayout(id);
  if (pair !== undefined) return expandPair(store, id, pair);
  return buildFromChunks(store, readWideChunks(store, id), wideDepth(id));
}

/**
 * The inner node of a wide leaf at relative depth `rel` (1..d) and position
 * `pos`, materialised as a new node with no holder: a leaf at depth d, a
 * smaller wide leaf above it; one level below a record pair, the half as
 * a base record of its bytes (recordPairs.ts).
 */
export function wideInner(store: NodeStore, id: NodeId, rel: number, pos: number): NodeId {
  if (rel === 1) {
    const pair = pairLayout(id);
    if (pair !== undefined) return halfOf(store, id, pair, pos);
  }
  const depth = wideDepth(id);
  const b = block(store, id);
  const span = 32 << (depth - rel);
  if (rel === depth) return store.newLeaf(b.data, b.offset + 32 * pos);
  return store.newWide(depth - rel, b.data, b.offset + span * pos);
}

/** The hash of a wide leaf's inner node at relative depth `rel` and position `pos`. */
export function wideInnerHash(store: NodeStore, id: NodeId, rel: number, pos: number): Uint8Array {
  const depth = wideDepth(id);
  const b = block(store, id);
  const span = 32 << (depth - rel);
  const o = b.offset + span * pos;
  return merkleize(b.data.subarray(o, o + span));
}

/**
 * Calls `visit(bytes, offset)` with chunk `index` of every live wide leaf of
 * inner depth `depth` (1..6), or with the chunk of every live leaf (`depth`
 * 0, `index` 0). Live means allocated and not freed: floating nodes not yet
 * swept count. `bytes` is the store's own page: read it inside `visit`, never
 * keep it. Used by side tables keyed by chunks (types' preimages) to drop
 * entries no live node refers to any more.
 */
export function scanLiveChunks(store: NodeStore, depth: number, index: number, visit: (bytes: Uint8Array, offset: number) => void): void {
  if (!Number.isInteger(depth) || depth < 0 || depth > MAX_WIDE_DEPTH || !Number.isInteger(index) || index < 0 || index >= 1 << depth) {
    throw new CoreError('BAD_INPUT', `scanLiveChunks: no chunk ${index} in a node of inner depth ${depth}`);
  }
  const pool = depth === 0 ? store.leaves : store.pools[KIND_WIDE_BASE + depth - 1]!;
  const bytes = 32 << depth;
  for (let slot = 0; slot < pool.top; slot++) {
    if ((pool.state(slot) & FLAG_FREE) !== 0) continue;
    const page = slot >>> pool.shift;
    const off = slot & pool.mask;
    if (depth === 0) visit(pool.h8[page]!, off << 5);
    else visit(pool.d8[page]!, off * bytes + 32 * index);
  }
}

/**
 * `count` new unhashed wide leaves of inner depth `depth` from `rows` (each
 * row 32·2^depth bytes, back to back), copied into the
 * pool's data pages (slot runs from `allocRuns`, one bulk copy per run):
 * no view object or allocation call per row. They are listed for the next
 * flush exactly as `StoreCore.newWide` lists one; `out[at + i]` gets row i's id.
 */
export function createWideRows(store: NodeStore, depth: number, rows: Uint8Array, count: number, out: NodeId[], at: number): void {
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_WIDE_DEPTH || !Number.isInteger(count) || count < 0 || count * (32 << depth) > rows.length) {
    throw new CoreError('BAD_INPUT', `wide rows: ${count} rows of inner depth ${depth} need ${count * (32 << depth)} bytes, got ${rows.length}`);
  }
  const kind = KIND_WIDE_BASE + depth - 1;
  const pool = store.pools[kind]!;
  const bytes = 32 << depth;
  const pending = store.widePending[depth]!;
  // Slots in runs (whole free pages first, then fresh ones): one bulk copy per run, not one alloc per row.
  pool.placePendingRows(kind, rows, 0, bytes, count, pending, out, at);
  store.pendingEntries += count;
}
