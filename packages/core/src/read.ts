/**
 * Bulk reads for serializers: the bytes of one level of a subtree copied
 * straight into a caller's buffer, the ids of one level collected in one
 * walk, a wide leaf's block copied out. Nothing here creates, floats or
 * retains a node, so the ids returned are good only until the caller's
 * current synchronous task ends (no sweep can run before then).
 *
 * Invariant: reads never write the store; a subtree of the wrong shape (a
 * leaf or opaque node where a branch belongs) throws `CoreError`.
 * @module
 */
import { CoreError } from './errors.js';
import { KIND_BRANCH, KIND_LEAF, KIND_ZERO, kindName, type NodeId } from './ids.js';
import type { StoreCore } from './store.js';
import { wideDepth } from './wide.js';

const chunkScratch = new Uint8Array(32);

function readChunkRaw(store: StoreCore, id: NodeId, out: Uint8Array, offset: number): void {
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  const o = (slot & pool.mask) << 5;
  out.set(pool.h8[slot >>> pool.shift]!.subarray(o, o + 32), offset);
}

function wideBlock(store: StoreCore, id: NodeId): { data: Uint8Array; offset: number } {
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  return { data: pool.d8[slot >>> pool.shift]!, offset: (slot & pool.mask) * (32 << wideDepth(id)) };
}

/**
 * Copies the first `byteLen` bytes of the chunks at level `depth` below
 * `root` to `out[offset]` (zero subtrees read as zeros, so `out` must be
 * zeroed there). Returns true when the rest of the last chunk (the bytes
 * from `byteLen` to its end) is zero.
 */
export function copyLevelBytes(store: StoreCore, root: NodeId, depth: number, byteLen: number, out: Uint8Array, offset: number): boolean {
  if (byteLen <= 0) return true;
  return copyBytes(store, root, depth, 0, byteLen, out, offset);
}

function copyBytes(store: StoreCore, node: NodeId, depth: number, base: number, byteLen: number, out: Uint8Array, offset: number): boolean {
  // `base`: the byte position of this subtree's first chunk in the level.
  if (base >= byteLen) return true;
  const kind = node & 15;
  if (kind === KIND_ZERO) return true;
  const span = 32 * 2 ** depth;
  const take = Math.min(span, byteLen - base);
  if (depth === 0) {
    if (kind !== KIND_LEAF) throw new CoreError('NOT_BRANCH', `expected a leaf at byte ${base}, found a ${kindName(kind)}`);
    if (take === 32) {
      readChunkRaw(store, node, out, offset + base);
      return true;
    }
    readChunkRaw(store, node, chunkScratch, 0);
    out.set(chunkScratch.subarray(0, take), offset + base);
    for (let i = take; i < 32; i++) if (chunkScratch[i] !== 0) return false;
    return true;
  }
  const wd = wideDepth(node);
  if (wd !== 0) {
    if (wd !== depth) throw new CoreError('NOT_BRANCH', `a wide leaf of depth ${wd} sits at a level of depth ${depth}`);
    const b = wideBlock(store, node);
    out.set(b.data.subarray(b.offset, b.offset + take), offset + base);
    const lastEnd = Math.min(span, Math.ceil(take / 32) * 32);
    for (let i = take; i < lastEnd; i++) if (b.data[b.offset + i] !== 0) return false;
    return true;
  }
  if (kind !== KIND_BRANCH) throw new CoreError('NOT_BRANCH', `expected a branch of depth ${depth} at byte ${base}, found a ${kindName(kind)}`);
  const half = span / 2;
  const left = copyBytes(store, store.leftOf(node), depth - 1, base, byteLen, out, offset);
  const right = copyBytes(store, store.rightOf(node), depth - 1, base + half, byteLen, out, offset);
  return left && right;
}

/**
 * The first `count` nodes of level `depth` below `root`, left to right, in
 * one recursive walk (zero subtrees give zero ids of the right depth).
 * Returns null when a wide leaf covers part of the level: its inner nodes
 * are not stored, and making them is the checked API's job.
 */
export function collectLevel(store: StoreCore, root: NodeId, depth: number, count: number): NodeId[] | null {
  const out: NodeId[] = new Array<NodeId>(count);
  if (count === 0) return out;
  return walk(store, root, depth, 0, count, out) ? out : null;
}

function walk(store: StoreCore, node: NodeId, depth: number, base: number, count: number, out: NodeId[]): boolean {
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
  if (wideDepth(node) !== 0) return false;
  if (kind !== KIND_BRANCH) throw new CoreError('NOT_BRANCH', `expected a branch of depth ${depth}, found a ${kindName(kind)}`);
  const half = 2 ** (depth - 1);
  return walk(store, store.leftOf(node), depth - 1, base, count, out) && walk(store, store.rightOf(node), depth - 1, base + half, count, out);
}

/** Copies the chunks of wide leaf `id` (32·2^d bytes) to `out[offset]`. */
export function copyWide(store: StoreCore, id: NodeId, out: Uint8Array, offset: number): void {
  const b = wideBlock(store, id);
  const n = 32 << wideDepth(id);
  out.set(b.data.subarray(b.offset, b.offset + n), offset);
}
