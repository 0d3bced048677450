/**
 * The bytes of a range of a level of records — a list of fixed-size
 * containers stored as base records and record pairs (records.ts,
 * recordPairs.ts) — copied out back to back in one walk, for rebuilding
 * the list in another shape (a fork upgrade turning a binary list into a
 * progressive one), run by run as the new shape's build asks for them.
 *
 * Records built together sit in consecutive slots of their pool's pages, so
 * the bytes of neighbouring records are neighbours in the page too: the walk
 * extends one run while each record's bytes continue the last one's, and
 * copies a run with one native copy when it breaks (a page or slot gap, a
 * record written since). A 2^20-element level of pairs built from bytes is
 * then a few hundred copies, not one per record, and no id list is made.
 * Positions are plain numbers below 2^53; the range is [lo, hi).
 *
 * Invariant: reads only (no node is made, held or released); returns false,
 * with `out` partly written, when the level holds anything but records of
 * one base kind and their pairs (wide leaves, zero subtrees inside the
 * count, records of another kind): the caller takes another path.
 * @module
 */
import { KIND_BRANCH, type NodeId } from '../nodes/ids.js';
import { layoutOf, type Layout } from '../nodes/recordLayouts.js';
import { recordOffset, recordPage } from './records.js';
import type { StoreCore } from '../store/storeCore.js';

/** Depths at and above which 2^(depth-1) is no small integer (`1 <<` would overflow). */
const SMI_DEPTH = 30;

/** The walk's state: the pending run (page bytes [runStart, runEnd)) and where it goes in the output. */
let runPage: Uint8Array | null = null;
let runStart = 0;
let runEnd = 0;
let runOut = 0;
let target: Uint8Array = new Uint8Array(0);
let kind = -1;
let pairKind = -1;
let size = 0;

function flush(): void {
  if (runPage !== null && runEnd > runStart) target.set(runPage.subarray(runStart, runEnd), runOut);
  runOut += runEnd - runStart;
  runPage = null;
  runStart = runEnd = 0;
}

/** Appends `len` bytes of page `page` from `at` to the output (extending the run when they continue it). */
function take(page: Uint8Array, at: number, len: number): void {
  if (page !== runPage || at !== runEnd) {
    flush();
    runPage = page;
    runStart = runEnd = at;
  }
  runEnd += len;
}

/**
 * Copies the bytes of records [start, start + count) at level `depth` below
 * `root` (records of base kind `base`, or pairs of them one level up) to
 * `out[offset, offset + count · size)`. Returns false when that part of the
 * level holds anything else (see the module comment).
 */
export function copyRecordLevel(store: StoreCore, root: NodeId, depth: number, start: number, count: number, base: number, out: Uint8Array, offset: number): boolean {
  const layout: Layout | undefined = layoutOf(base);
  if (layout === undefined || layout.halves !== 0) return false;
  if (count === 0) return true;
  kind = base;
  pairKind = layout.pair;
  size = layout.size;
  target = out;
  runPage = null;
  runStart = runEnd = 0;
  runOut = offset;
  lo = start;
  hi = start + count;
  try {
    if (!walk(store, root, depth, 0)) return false;
    flush();
    return true;
  } finally {
    target = new Uint8Array(0);
    runPage = null;
  }
}

/** The positions wanted: [lo, hi). */
let lo = 0;
let hi = 0;

function walk(store: StoreCore, node: NodeId, depth: number, first: number): boolean {
  // `first`: the level position of this subtree's first record; the caller skips subtrees outside [lo, hi).
  const k = node & 15;
  if (depth === 0) {
    if (k !== kind) return false;
    take(recordPage(store, node), recordOffset(store, node), size);
    return true;
  }
  if (depth === 1 && k === pairKind) {
    // The range may start at the pair's second half or end after its first.
    const from = lo > first ? 1 : 0;
    const to = hi < first + 2 ? 1 : 2;
    take(recordPage(store, node), recordOffset(store, node) + from * size, (to - from) * size);
    return true;
  }
  // A zero subtree inside the range, a wide leaf, a record of another kind: not a level of these records.
  if (k !== KIND_BRANCH) return false;
  // Past depth 30, 2^(depth-1) is no small integer: computed apart (a right child that far out lies past any range).
  const mid = depth - 1 >= SMI_DEPTH ? first + 2 ** (depth - 1) : first + (1 << (depth - 1));
  if (lo < mid && !walk(store, store.leftOf(node), depth - 1, first)) return false;
  return mid >= hi || walk(store, store.rightOf(node), depth - 1, mid);
}
