/**
 * The pages of packed sequences (packed.ts): their geometry
 * (`packedShape`), contents built from pages in one bulk call
 * (`packedContents`), and the page-order helpers of a commit — sorting the
 * dirty pages, recognising an in-order sweep, filling and refilling the
 * page table.
 * Pure functions of their arguments; the view's state stays in packed.ts.
 * @module
 */
import type { NodeId, NodeStore, Tree } from '@ssztree/core';
import { depthForLimit } from '../merkle.js';
import { collectingBuilt, recordBuilt } from './built.js';

/** Inner depth of a page: 8 chunks, the wide-leaf size the store hashes in one batch per depth. */
export const PAGE_DEPTH = 3;

/** The geometry of a packed sequence's tree. */
export interface PackedShape {
  /** Depth of the chunk level below the contents root. */
  readonly chunkDepth: number;
  /** Inner depth of a page (min(PAGE_DEPTH, chunkDepth)). */
  readonly pageDepth: number;
  /** 1 for lists (contents under the length mix-in), 0 for vectors. */
  readonly offsetDepth: number;
}

export function packedShape(chunkLimit: number, isList: boolean): PackedShape {
  const chunkDepth = depthForLimit(chunkLimit);
  return { chunkDepth, pageDepth: Math.min(PAGE_DEPTH, chunkDepth), offsetDepth: isList ? 1 : 0 };
}

/**
 * The contents subtree of packed `chunks` as wide-leaf pages, built and
 * hashed in runs by one `store.fromPages` (the last page zero-padded).
 * `wrap` makes the sequence's node of the contents (a list's length mixed
 * in; none for a vector). During a build from bytes (view/built.ts) the page
 * ids are kept: the page table of that node is recorded for its view.
 */
export function packedContents(store: NodeStore, chunks: Uint8Array, shape: PackedShape, wrap?: (contents: NodeId) => NodeId): NodeId {
  const { chunkDepth, pageDepth } = shape;
  if (pageDepth === 0 || chunks.length === 0) {
    const contents = store.fromChunks(chunks, chunkDepth);
    return wrap === undefined ? contents : wrap(contents);
  }
  const count = Math.ceil(chunks.length / (32 << pageDepth));
  const ids = collectingBuilt() ? new Int32Array(count) : undefined;
  // The same object shape as #flushBulk's source: one shape keeps core's bulk build optimised for both callers.
  const contents = store.fromPages({ data: chunks, offsets: undefined }, count, pageDepth, chunkDepth - pageDepth, ids);
  const node = wrap === undefined ? contents : wrap(contents);
  if (ids !== undefined) {
    const table = new Int32Array(count);
    for (let p = 0; p < count; p++) table[p] = ids[p]! + 1;
    recordBuilt(node, builtPageTable(node, table));
  }
  return node;
}

/** A page table handed to the view of a clone or of a list just built (packed.ts `_inherit`). */
export class PageTableHint {
  constructor(
    readonly root: NodeId,
    readonly table: Int32Array,
    /** Single-page walks made by the views this one descends from (see TABLE_FILL_MIN_WALKS). */
    readonly walks: number,
    /** The last commit rebuilt most pages (`#flushBulk`): the next version's writes likely will too. */
    readonly bulk: boolean,
    /**
     * The table may be handed to several views (a build's, or a clone's passed on to each clone of a
     * field no view was made for: `sharedPageTable`): each takes a copy. Otherwise the one view taking it
     * takes the array itself.
     */
    readonly shared: boolean,
    /** A build's table: it says nothing of the writes to come (the view keeps what its schema's history says). */
    readonly build: boolean,
  ) {}
}

/** The hint of a list just built at `root` whose page p is node table[p] - 1. */
export function builtPageTable(root: NodeId, table: Int32Array): PageTableHint {
  return new PageTableHint(root, table, 0, false, true, true);
}

/**
 * `hint` as a hint any number of views may take (each copying the table), or
 * undefined when it is no page table's. So a container passes a clone's page
 * table on through versions that never made the field's view (an epoch's
 * inactivity scores, read by no block: each epoch's view starts with the
 * table the last one left instead of filling it by a walk of 2^15 pages).
 */
export function sharedPageTable(hint: unknown): PageTableHint | undefined {
  if (!(hint instanceof PageTableHint)) return undefined;
  return hint.shared ? hint : new PageTableHint(hint.root, hint.table, hint.walks, hint.bulk, true, hint.build);
}

/** Digit counts of `sortedPositions`' radix passes. */
const counts = new Int32Array(257);

/**
 * The positions of `order` (distinct page indices) sorted by page. A block
 * dirties ~1000 random pages of 2^15: a least-significant-digit radix sort
 * of the positions, one pass per byte of the largest page index (two here),
 * took a fraction of the native sort of page·2^21 + position keys it
 * replaced (~0.1 ms a block, profile-views). Indices of 2^31 and more
 * (lists past 2^36 elements) fall back to a comparator sort. `bufA` and
 * `bufB` (n entries or more each, contents not kept) spare the two
 * buffers' allocation; the result is one of them then, its first n entries
 * the answer.
 */
export function sortedPositions(order: ArrayLike<number>, n = order.length, bufA?: Int32Array, bufB?: Int32Array): Int32Array {
  let src = bufA ?? new Int32Array(n);
  for (let j = 0; j < n; j++) src[j] = j;
  let max = 0;
  for (let j = 0; j < n; j++) if (order[j]! > max) max = order[j]!;
  if (max >= 2 ** 31) return src.subarray(0, n).sort((a, b) => order[a]! - order[b]!);
  let dst = bufB ?? new Int32Array(n);
  for (let shift = 0; shift < 32 && (shift === 0 || max >>> shift > 0); shift += 8) {
    counts.fill(0);
    for (let j = 0; j < n; j++) counts[((order[src[j]!]! >>> shift) & 255) + 1]!++;
    for (let d = 1; d <= 256; d++) counts[d]! += counts[d - 1]!;
    for (let j = 0; j < n; j++) {
      const k = src[j]!;
      dst[counts[(order[k]! >>> shift) & 255]!++] = k;
    }
    [src, dst] = [dst, src];
  }
  return src;
}

/**
 * Whether dirty page k sits at k·size in the slab for every k (an epoch's
 * sweep). This and `tableFromIds` are functions of their own: a bulk commit
 * runs once per epoch, and when V8 deoptimises it at a path it has not seen
 * yet (it did, in the first epochs after a state build), loops of 2^15
 * pages kept inline ran on in the interpreter.
 */
export function slabInOrder(order: ArrayLike<number>, orderAt: ArrayLike<number>, n: number, size: number): boolean {
  for (let k = 0; k < n; k++) if (order[k] !== k || orderAt[k] !== k * size) return false;
  return true;
}

/** The page table after a bulk commit: id + 1 of each of the `pages` pages, 0 past them. */
export function tableFromIds(table: Int32Array, ids: Int32Array, pages: number): void {
  for (let p = 0; p < pages; p++) table[p] = ids[p]! + 1;
  table.fill(0, pages);
}

/**
 * A page table of this many pages or more is filled in one walk of the page
 * level (`store.collectLevel`, ~1.3–1.5 ms for 2^15 pages) once the view
 * has looked up max(TABLE_FILL_MIN_WALKS, pages / 32) pages one walk of ~36
 * levels at a time (~1.5 µs each when cold): about the point where the
 * single walk costs no more than the lookups so far, so a view that reads
 * a few pages (a light block on a clone) never pays for it, and one that
 * reads many (a block's ~1000 of 2^15 pages) pays at most about twice. Before
 * this, a state rebuilt every eight blocks (bench/views.ts) walked for
 * nearly every page its blocks wrote.
 */
export const TABLE_FILL_MIN_PAGES = 4096;
export const TABLE_FILL_MIN_WALKS = 64;

/** Fills table[0, pages) with id + 1 of each page of `tree` at `level` (left as it is when the level is not plain branches down to the pages). */
export function fillTable(tree: Tree, level: number, table: Int32Array, pages: number): void {
  const ids = tree.store.collectLevel(tree.rootNode, level, pages);
  if (ids !== null) for (let i = 0; i < pages; i++) table[i] = ids[i]! + 1;
}
