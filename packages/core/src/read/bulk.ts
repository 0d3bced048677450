/**
 * Bulk reads for serializers: the bytes of one level of a subtree copied
 * straight into a caller's buffer, the ids of one level collected in one
 * walk, a wide leaf's block copied out. Nothing here creates, floats or
 * retains a node, so the ids returned are good only while the root they
 * were read from is held — for the rest of the caller's synchronous task,
 * as long as the caller releases nothing (sweeps never free held nodes).
 *
 * Invariant: reads never write the store; a subtree of the wrong shape (a
 * leaf or opaque node where a branch belongs) throws `CoreError`.
 * @module
 */
import { CoreError } from '../errors.js';
import { KIND_BRANCH, KIND_LEAF, KIND_ZERO, kindName, type NodeId } from '../nodes/ids.js';
import { pageView } from '../nodes/pool.js';
import { pairLayout } from '../wide/recordPairs.js';
import type { StoreCore } from '../store/storeCore.js';
import { block, wideDepth } from '../wide/wideLeaves.js';

const chunkScratch = new Uint8Array(32);
const chunkScratchView = new DataView(chunkScratch.buffer);

/** Copies `n` bytes from `src[s]` to `dst[d]`, a word at a time, then the tail bytes. */
function copyWords(src: DataView, s: number, dst: DataView, d: number, n: number): void {
  let k = 0;
  for (; k + 4 <= n; k += 4) dst.setUint32(d + k, src.getUint32(s + k, true), true);
  for (; k < n; k++) dst.setUint8(d + k, src.getUint8(s + k));
}

function readChunkRaw(store: StoreCore, id: NodeId, out: DataView, offset: number): void {
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  copyWords(pageView(pool.h8[slot >>> pool.shift]!), (slot & pool.mask) << 5, out, offset, 32);
}


/**
 * Copies the first `byteLen` bytes of the chunks at level `depth` below
 * `root` to `out[offset]` (zero subtrees read as zeros, so `out` must be
 * zeroed there). Returns true when the rest of the last chunk (the bytes
 * from `byteLen` to its end) is zero.
 */
export function copyLevelBytes(store: StoreCore, root: NodeId, depth: number, byteLen: number, out: Uint8Array, offset: number): boolean {
  if (byteLen <= 0) return true;
  outBytes = out;
  try {
    return copyBytes(store, root, depth, offset, offset + byteLen, new DataView(out.buffer, out.byteOffset, out.byteLength), offset);
  } finally {
    outBytes = chunkScratch;
  }
}

/** `copyLevelBytes`'s output as bytes, for the native copy of a wide leaf's block (the walk does not re-enter). */
let outBytes: Uint8Array = chunkScratch;

/** Subtrees of this depth or more span 2^30 bytes or more: positions past them are computed as doubles, off the hot path. */
const SMI_DEPTH = 25;

function copyBytes(store: StoreCore, node: NodeId, depth: number, pos: number, end: number, out: DataView, start: number): boolean {
  // `pos`: where this subtree's first byte goes in `out`; `end`: the end of the bytes wanted. Both stay small integers
  // (no heap numbers on the recursion: measured 10x slower on a large heap when positions were doubles).
  if (pos >= end) return true;
  const kind = node & 15;
  if (kind === KIND_ZERO) return true;
  if (depth === 0) {
    if (kind !== KIND_LEAF) throw new CoreError('NOT_BRANCH', `expected a leaf at byte ${pos - start}, found a ${kindName(kind)}`);
    if (end - pos >= 32) {
      readChunkRaw(store, node, out, pos);
      return true;
    }
    const take = end - pos;
    readChunkRaw(store, node, chunkScratchView, 0);
    copyWords(chunkScratchView, 0, out, pos, take);
    for (let i = take; i < 32; i++) if (chunkScratch[i] !== 0) return false;
    return true;
  }
  const wd = wideDepth(node);
  if (wd !== 0) {
    if (wd !== depth) throw new CoreError('NOT_BRANCH', `a wide leaf of depth ${wd} sits at a level of depth ${depth}`);
    const span = 32 << depth;
    const take = end - pos < span ? end - pos : span;
    // A record's chunks come expanded in a scratch (wide/wideLeaves.ts `block`), read right here.
    const b = block(store, node);
    const page = b.data;
    const at = b.offset;
    // One native copy of the block: the word loop through a looked-up DataView cost ~0.3 µs a 256-byte page,
    // most of loading a 2^20-byte participation list's 4096 pages at once (packed views' bulk load).
    outBytes.set(page.subarray(at, at + take), pos);
    const lastEnd = Math.min(span, Math.ceil(take / 32) * 32);
    for (let i = take; i < lastEnd; i++) if (page[at + i] !== 0) return false;
    return true;
  }
  if (kind !== KIND_BRANCH) throw new CoreError('NOT_BRANCH', `expected a branch of depth ${depth} at byte ${pos - start}, found a ${kindName(kind)}`);
  if (!copyBytes(store, store.leftOf(node), depth - 1, pos, end, out, start)) return false;
  if (depth - 1 >= SMI_DEPTH) {
    const mid = pos + 32 * 2 ** (depth - 1);
    return mid >= end || copyBytes(store, store.rightOf(node), depth - 1, mid, end, out, start);
  }
  return copyBytes(store, store.rightOf(node), depth - 1, pos + (32 << (depth - 1)), end, out, start);
}

/**
 * The first `count` nodes of level `depth` below `root`, left to right, in
 * one recursive walk (zero subtrees give zero ids of the right depth).
 * Returns null when a wide leaf covers part of the level: its inner nodes
 * are not stored, and making them is the checked API's job. With `paired`,
 * a record pair (wide/recordPairs.ts) one level above stands for both its
 * positions instead: out[2i] = out[2i + 1] = the pair's id (a pair at
 * out[count - 1] alone means a record past the end), for readers that copy
 * a pair's bytes whole.
 */
export function collectLevel(store: StoreCore, root: NodeId, depth: number, count: number, paired = false): NodeId[] | null {
  const out: NodeId[] = new Array<NodeId>(count);
  if (count === 0) return out;
  return walk(store, root, depth, 0, count, out, paired) ? out : null;
}

function walk(store: StoreCore, node: NodeId, depth: number, base: number, count: number, out: NodeId[], paired: boolean): boolean {
  if (base >= count) return true;
  if (depth === 0) {
    out[base] = node;
    return true;
  }
  const kind = node & 15;
  if (kind === KIND_ZERO) {
    // A zero subtree of depth d has zero subtrees of depth d-1 below it: ids by construction.
    const child = ((node >>> 4) - depth) << 4;
    if (node >>> 4 < depth) throw new CoreError('NOT_BRANCH', `a zero subtree of depth ${node >>> 4} sits at a level of depth ${depth}`);
    const end = Math.min(count, base + 2 ** depth);
    for (let i = base; i < end; i++) out[i] = child;
    return true;
  }
  if (paired && depth === 1 && pairLayout(node) !== undefined) {
    out[base] = node;
    if (base + 1 < count) out[base + 1] = node;
    return true;
  }
  if (wideDepth(node) !== 0) return false;
  if (kind !== KIND_BRANCH) throw new CoreError('NOT_BRANCH', `expected a branch of depth ${depth}, found a ${kindName(kind)}`);
  const half = 2 ** (depth - 1);
  return walk(store, store.leftOf(node), depth - 1, base, count, out, paired) && walk(store, store.rightOf(node), depth - 1, base + half, count, out, paired);
}

/**
 * `collectLevel` into an element table (types' view/elementTable.ts): for
 * each of the first `count` positions of level `depth`, out[i] = id + 1 of
 * the node there, or -(id + 1) of the record pair one level above that
 * holds it as a half (so a pair that IS an element, a container of two
 * records, is never taken for two halves). False when another wide leaf
 * covers part of the level (out is then partly written).
 */
export function collectElements(store: StoreCore, root: NodeId, depth: number, count: number, out: Int32Array): boolean {
  if (count === 0) return true;
  return walkElements(store, root, depth, 0, count, out);
}

function walkElements(store: StoreCore, node: NodeId, depth: number, base: number, count: number, out: Int32Array): boolean {
  if (base >= count) return true;
  if (depth === 0) {
    out[base] = node + 1;
    return true;
  }
  const kind = node & 15;
  if (kind === KIND_ZERO) {
    const child = ((node >>> 4) - depth) << 4;
    if (node >>> 4 < depth) throw new CoreError('NOT_BRANCH', `a zero subtree of depth ${node >>> 4} sits at a level of depth ${depth}`);
    out.fill(child + 1, base, Math.min(count, base + 2 ** depth));
    return true;
  }
  if (depth === 1 && pairLayout(node) !== undefined) {
    out[base] = -(node + 1);
    if (base + 1 < count) out[base + 1] = -(node + 1);
    return true;
  }
  if (wideDepth(node) !== 0) return false;
  if (kind !== KIND_BRANCH) throw new CoreError('NOT_BRANCH', `expected a branch of depth ${depth}, found a ${kindName(kind)}`);
  const half = 2 ** (depth - 1);
  return walkElements(store, store.leftOf(node), depth - 1, base, count, out) && walkElements(store, store.rightOf(node), depth - 1, base + half, count, out);
}

/** Copies the chunks of wide leaf `id` (32·2^d bytes) to `out` at `offset`. */
export function copyWide(store: StoreCore, id: NodeId, out: DataView, offset: number): void {
  const b = block(store, id);
  copyWords(pageView(b.data), b.offset, out, offset, b.bytes);
}
