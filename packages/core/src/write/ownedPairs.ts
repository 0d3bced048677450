/**
 * The fused in-place write of base records into owned record pairs
 * (`setNodesAtDepth` when the caller owns the root and every written
 * position lies in a pair one level up: a block's validators). The paths
 * are found (ownedPaths.ts), each pair takes its written halves' bytes in
 * place, the pairs that changed are hashed in one record batch, and the
 * paths are hashed bottom up: no pair or branch is listed for the flush.
 *
 * Only for batches of FUSED_MIN positions or more: hashing at the write is
 * worth it when the batch is large; a small commit's pairs and paths still
 * wait for the flush, which several commits before a root then share. A
 * batch that is one part of a larger commit (batchWrite.ts
 * `InPlaceWrite.hashNow`: a progressive list's subtrees) is taken however
 * small: its paths share nothing with the other parts' in the flush.
 *
 * Invariant: returns NOT_FUSED having changed nothing, or the pairs written
 * and every changed pair and path node carrying the hash of its new
 * contents (the caller lists the root's own parents). If hashing throws,
 * the changed pairs and the paths are listed for the flush instead.
 * @module
 */
import type { NodeId } from '../nodes/ids.js';
import { findOwnedPaths, hashOwnedPaths, isPending, levelEnd, levelStart, pathBases, pathHis, pathLos, pathNodes } from './ownedPaths.js';
import { repairInPlace } from './inPlace.js';
import { fitsHalf, pairLayout, writeHalvesInPlace } from '../wide/recordPairs.js';
import { hashRecords } from '../hash/recordFlush.js';
import { RECORD_BATCH } from '../hash/recordHash.js';
import type { Layout } from '../nodes/recordLayouts.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/** Fewest positions written by the fused pass (measured: a block's 128 validators gain; see CORE.md). */
export const FUSED_MIN = 64;

/** `writeOwnedPairs`'s answer: not taken (nothing changed), taken with no byte changed, taken with changes. */
export const NOT_FUSED = -1;
export const FUSED_UNCHANGED = 0;
export const FUSED_CHANGED = 1;

/** The pairs that changed, hashed together (grown as needed). */
let changedPairs = new Int32Array(256);

/**
 * Writes base records `nodes` at `indices` (strictly ascending, checked by
 * the caller) of level `depth` below the owned `root` into the record pairs
 * one level up, in place, and hashes them and the paths; batches of fewer
 * than `min` positions are not taken.
 */
export function writeOwnedPairs(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, nodes: ArrayLike<NodeId>, min = FUSED_MIN): number {
  const n = indices.length;
  if (n < min || !findOwnedPaths(store, root, depth, indices, 1)) return NOT_FUSED;
  const first = levelStart[1]!;
  const end = levelEnd[1]!;
  // Every path ends in a hashed pair of one layout whose written halves are records of its base kind.
  let layout: Layout | undefined;
  for (let k = first; k < end; k++) {
    const pair = pathNodes[k]!;
    const own = pairLayout(pair);
    if (own === undefined || (layout !== undefined && own !== layout) || isPending(store, pair)) return NOT_FUSED;
    layout = own;
    for (let i = pathLos[k]!; i < pathHis[k]!; i++) if (!fitsHalf(own, nodes[i]!)) return NOT_FUSED;
  }
  if (changedPairs.length < end - first) changedPairs = new Int32Array(2 * (end - first));
  let changed = 0;
  for (let k = first; k < end; k++) {
    const pair = pathNodes[k]!;
    if (writeHalvesInPlace(store, pair, layout!, indices, nodes, pathLos[k]!, pathHis[k]!, pathBases[k]!)) changedPairs[changed++] = pair;
  }
  if (changed === 0) return FUSED_UNCHANGED;
  try {
    for (let at = 0; at < changed; at += RECORD_BATCH) hashRecords(store, layout!, changedPairs, at, Math.min(changed, at + RECORD_BATCH));
    hashOwnedPaths(store, depth, 1);
  } catch (error) {
    // A hasher failure must not leave written pairs and paths with old hashes and unlisted: list them for the flush.
    for (let k = 0; k < changed; k++) store.relistChanged(changedPairs[k]!, store.recordPending[changedPairs[k]! & 15]!);
    repairInPlace(store, root, depth, indices, 0, n, 0, true);
    throw error;
  }
  return FUSED_CHANGED;
}
