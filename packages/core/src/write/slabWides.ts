/**
 * The wide leaves of a `setWidesAtDepth` batch, made from a caller's slab
 * (a packed view's dirty pages, back to back) as the batch reaches their
 * positions: an owned old leaf of the same inner depth is rewritten in place
 * (inPlace.ts), anything else gets a new leaf.
 *
 * When the pages lie on one grid and fill at least half their span, their
 * roots are computed first, the whole span straight from the slab in one
 * hash call per fold, and each leaf takes its root from there: the flush
 * then has no wide leaves to copy into staging. Otherwise the leaves are
 * listed for hashing like any new wide leaf.
 *
 * Invariant: every leaf made here is hashed or listed for hashing, and is
 * recorded in `created` (new leaves have no holder until the batch links
 * them; a batch that fails part way floats them).
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import { staging } from '../hash/flush.js';
import { KIND_WIDE_BASE, type NodeId } from '../nodes/ids.js';
import { rewriteWide } from './inPlace.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/**
 * Fewest wide leaves whose roots a batch computes up front (below this the
 * flush's batching is as good), unless the caller asks for fewer (a part of
 * a larger commit, batchWrite.ts `InPlaceWrite.hashNow`).
 */
export const HASH_NOW_MIN = 64;

/** Roots of the last `slabRoots` (8 words per page of the span), kept apart from the store's staging. */
let rootScratch = new Int32Array(8 * 1024);

/** Where a batch's wide leaves come from and where their ids go. */
export interface SlabWides {
  /** Inner depth of the leaves. */
  readonly depth: number;
  readonly data: Uint8Array;
  /** `data` as 32-bit words when it and every offset are 4-byte aligned, else null. */
  readonly words: Int32Array | null;
  readonly offsets: ArrayLike<number>;
  /** The pages' roots when computed up front (`slabRoots`), else null. */
  readonly roots: Int32Array | null;
  /** Byte offset in `data` of the span whose roots `roots` holds. */
  readonly rootsFrom: number;
  /** created[i]: the leaf now at the batch's i-th position. */
  readonly created: NodeId[];
}

/** The batch's slab description: aligned words, and the roots computed up front when the pages qualify (at least `min` of them). */
export function slabWides(store: NodeStore, depth: number, data: Uint8Array, offsets: ArrayLike<number>, created: NodeId[], min = HASH_NOW_MIN): SlabWides {
  const n = offsets.length;
  let aligned = data.byteOffset % 4 === 0;
  for (let i = 0; i < n && aligned; i++) aligned = offsets[i]! % 4 === 0;
  const words = aligned ? new Int32Array(data.buffer, data.byteOffset, data.length >>> 2) : null;
  let roots: Int32Array | null = null;
  let rootsFrom = 0;
  if (aligned && n >= min) {
    rootsFrom = offsets[0]!;
    for (let i = 1; i < n; i++) if (offsets[i]! < rootsFrom) rootsFrom = offsets[i]!;
    roots = slabRoots(store, depth, data, offsets, rootsFrom);
  }
  return { depth, data, words, offsets, roots, rootsFrom, created };
}

/**
 * The roots of the pages of `data` from `lo` (the lowest offset) to the
 * highest, hashed in one pass per fold, when the offsets lie on one page
 * grid from `lo` and cover at least half of their span; else null.
 */
function slabRoots(store: NodeStore, depth: number, data: Uint8Array, offsets: ArrayLike<number>, lo: number): Int32Array | null {
  const n = offsets.length;
  const bytes = 32 << depth;
  let hi = lo;
  for (let i = 0; i < n; i++) {
    const o = offsets[i]!;
    if ((o - lo) % bytes !== 0) return null;
    if (o > hi) hi = o;
  }
  const span = hi + bytes - lo;
  if (span > 2 * n * bytes) return null;
  const count = span / bytes;
  let half = span >>> 1;
  const st = staging(store, half);
  hashInto(data.subarray(lo, lo + span), st.subarray(0, half));
  for (let level = 1; level < depth; level++, half >>>= 1) hashInto(st.subarray(0, half), st.subarray(0, half >>> 1));
  // Roots of the span's pages now at st[32·k] for page k: copied out, so no flush during the batch can overwrite them.
  if (rootScratch.length < count * 8) rootScratch = new Int32Array(Math.max(count * 8, 2 * rootScratch.length));
  rootScratch.set(new Int32Array(st.buffer, st.byteOffset, count * 8));
  return rootScratch;
}

/**
 * The leaf for the batch's i-th position, whose old node is `old`:
 * rewritten in place when `owned` (its only holder is an owned parent's
 * link) and of the same inner depth, else a new leaf.
 */
export function wideAt(store: NodeStore, src: SlabWides, i: number, old: NodeId, owned: boolean): NodeId {
  const kind = KIND_WIDE_BASE + src.depth - 1;
  const offset = src.offsets[i]!;
  const rootAt = ((offset - src.rootsFrom) / (32 << src.depth)) * 8;
  let id: NodeId;
  if (src.words !== null) {
    if (owned && (old & 15) === kind) {
      rewriteWide(store, old, src.depth, src.words, offset >>> 2, src.roots, rootAt);
      src.created[i] = old;
      return old;
    }
    id = src.roots !== null ? hashedWide(store, kind, src.words, offset >>> 2, src.roots, rootAt) : store.newWideFromWords(src.depth, src.words, offset >>> 2);
  } else id = store.newWide(src.depth, src.data, offset);
  src.created[i] = id;
  return id;
}

/** A new wide leaf of `kind` from the words at words[from], its root at roots[rootAt]: hashed, no holder, on no list. */
export function hashedWide(store: NodeStore, kind: number, words: Int32Array, from: number, roots: Int32Array, rootAt: number): NodeId {
  const pool = store.pools[kind]!;
  const slot = pool.alloc();
  const page = slot >>> pool.shift;
  const off = slot & pool.mask;
  const n32 = pool.dataBytes >>> 2;
  const d32 = pool.d32[page]!;
  for (let w = 0, o = off * n32; w < n32; w++) d32[o + w] = words[from + w]!;
  const h32 = pool.h32[page]!;
  for (let w = 0; w < 8; w++) h32[(off << 3) + w] = roots[rootAt + w]!;
  const m = pool.meta[page]!;
  m[off << 1] = 0;
  m[(off << 1) + 1] = 0;
  return (slot << 4) | kind;
}
