/**
 * Record pairs (nodes/recordLayouts.ts `registerRecordPairs`): two base records of a
 * list stored as ONE node at the level above them — their bytes back to
 * back, the root H(root(A), root(B)). A pair costs 2s + 40 bytes instead of
 * two records and the branch above them (2s + 80 + 48). A list of odd
 * length ends in a single record under a branch beside the zero chunk: SSZ
 * pads with zero chunks, and no layout's chunks merkleize to zero.
 *
 * Generic code sees a pair as a record (a wide leaf) of depth d + 1. Going
 * one level below it yields a HALF: a base record of the half's bytes,
 * never a wide leaf of chunks, which would lose a long field's bytes. This
 * module makes those halves (`halfOf`, `expandPair`), rewrites pairs from
 * written halves (`pairWithHalves`), pairs two records written side by side
 * (`pairOfRecords`: where a branch over two base records would be made,
 * write/navigate.ts makes a pair, so pushes end up paired). Reading a level of
 * elements where pairs stand for two is read/bulk.ts's `collectLevel(…, paired)`.
 *
 * Invariants: a pair's bytes are its halves' bytes in order, so its root is
 * the branch root over its halves; writing the bytes already there returns
 * the same id; nothing here changes an existing node, except a pair an
 * in-place write owns (`rewriteHalves`, write/inPlace.ts).
 * @module
 */
import type { NodeId } from '../nodes/ids.js';
import { layoutOf, type Layout } from '../nodes/recordLayouts.js';
import { copyRecordBytes, newRecord, recordOffset, recordPage } from './records.js';
import type { StoreCore } from '../store/storeCore.js';

/** The pair layout of `id`, or undefined when `id` is not a pair or half pair. */
export function pairLayout(id: NodeId): Layout | undefined {
  const layout = layoutOf(id & 15);
  return layout !== undefined && layout.halves > 0 ? layout : undefined;
}

/** Half `k` (0 or 1) of pair `id` as a new unheld, unhashed base record of its bytes. */
export function halfOf(store: StoreCore, id: NodeId, layout: Layout, k: number): NodeId {
  const base = layoutOf(layout.base)!;
  return newRecord(store, base, recordPage(store, id), recordOffset(store, id) + k * base.size);
}

/** The pair as a branch over its two halves (unheld, unhashed: hashed by the next flush like any new node). */
export function expandPair(store: StoreCore, id: NodeId, layout: Layout): NodeId {
  return store.newBranch(halfOf(store, id, layout, 0), halfOf(store, id, layout, 1));
}

/** True when `node` can be a half of a pair of `layout`: a record of its base kind. */
export function fitsHalf(layout: Layout, node: NodeId): boolean {
  return (node & 15) === layout.base;
}

/**
 * A new pair of base records `left` and `right` (written next to each
 * other: a push beside a list's odd last record, a record written beside
 * one under a branch), or -1 when they are not two records of one base kind
 * with a pair kind.
 */
export function pairOfRecords(store: StoreCore, left: NodeId, right: NodeId): NodeId {
  const kind = left & 15;
  if ((right & 15) !== kind) return -1;
  const base = layoutOf(kind);
  if (base === undefined || base.pair < 0) return -1;
  const s = base.size;
  if (scratch.length < 2 * s) scratch = new Uint8Array(2 * s);
  copyRecordBytes(store, left, scratch, 0);
  copyRecordBytes(store, right, scratch, s);
  return newRecord(store, layoutOf(base.pair)!, scratch, 0);
}

/** Scratch for the bytes of a new pair (grown as needed). */
let scratch = new Uint8Array(512);

/**
 * Owned pair `id` (write/inPlace.ts: nothing but its owned parent's link reaches
 * it) with half (positions[i] - at) rewritten in place from base record
 * nodes[i] for i in [lo, hi): only the bytes that differ are written, and a
 * pair that changed is listed for hashing again. Returns whether it changed.
 */
export function rewriteHalves(store: StoreCore, id: NodeId, layout: Layout, positions: ArrayLike<number>, nodes: ArrayLike<NodeId>, lo: number, hi: number, at: number): boolean {
  const changed = writeHalvesInPlace(store, id, layout, positions, nodes, lo, hi, at);
  if (changed) store.relistChanged(id, store.recordPending[id & 15]!);
  return changed;
}

/** `rewriteHalves` without the listing: the caller hashes the pair itself (write/ownedPairs.ts). */
export function writeHalvesInPlace(store: StoreCore, id: NodeId, layout: Layout, positions: ArrayLike<number>, nodes: ArrayLike<NodeId>, lo: number, hi: number, at: number): boolean {
  return writeHalves(store, recordPage(store, id), recordOffset(store, id), layout, positions, nodes, lo, hi, at);
}

/**
 * Pair `id` with half (positions[i] - at) replaced by base record nodes[i]
 * for i in [lo, hi): a new pair, or `id` itself when every record written
 * holds the bytes already there.
 */
export function pairWithHalves(store: StoreCore, id: NodeId, layout: Layout, positions: ArrayLike<number>, nodes: ArrayLike<NodeId>, lo: number, hi: number, at: number): NodeId {
  const s = layoutOf(layout.base)!.size;
  if (scratch.length < 2 * s) scratch = new Uint8Array(2 * s);
  copyRecordBytes(store, id, scratch, 0);
  return writeHalves(store, scratch, 0, layout, positions, nodes, lo, hi, at) ? newRecord(store, layout, scratch, 0) : id;
}

/** Writes half (positions[i] - at) of the pair bytes at out[offset] from base record nodes[i] for i in [lo, hi); whether any byte changed. */
function writeHalves(store: StoreCore, out: Uint8Array, offset: number, layout: Layout, positions: ArrayLike<number>, nodes: ArrayLike<NodeId>, lo: number, hi: number, at: number): boolean {
  const s = layoutOf(layout.base)!.size;
  let changed = false;
  for (let i = lo; i < hi; i++) {
    const k = offset + (positions[i]! - at) * s;
    const node = nodes[i]!;
    const page = recordPage(store, node);
    const o = recordOffset(store, node);
    for (let b = 0; b < s; b++) {
      if (out[k + b] !== page[o + b]) {
        changed = true;
        out[k + b] = page[o + b]!;
      }
    }
  }
  return changed;
}
