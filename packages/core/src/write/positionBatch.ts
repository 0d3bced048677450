/**
 * Batch writes at positions of different depths: `setNodesAtPositions` puts
 * nodes[j] at position (depths[j], indices[j]) below a root — any mix of
 * levels, given left to right, none inside another — in one pass down the
 * tree. It is what a parent whose children sit at several depths commits
 * with: the subtrees of a right-leaning spine (SSZ's progressive
 * merkleization, of lists and containers alike), plus a length leaf, in one
 * batch.
 *
 * Same contract as the one-level batches of batchWrite.ts: persistent
 * (new branches along the written paths, the rest shared); a write of what
 * is there changes nothing, so a batch of no-ops returns the same root; with
 * an `InPlaceWrite` claim the root's count proves, owned branches are
 * rewritten and listed for hashing again instead of copied (inPlace.ts), and
 * `touched[j]` marks a node already in place whose subtree changed in place.
 *
 * Invariant: every path is checked before anything is written (positions
 * are reached through branches and zero subtrees only), so a batch fails
 * without having changed or made anything; ids returned have a holder or
 * none (callers float or retain them).
 * @module
 */
import { CoreError } from '../errors.js';
import { bitAt, checkDepth, checkIndex } from '../gindex.js';
import { KIND_BRANCH, KIND_ZERO, type NodeId } from '../nodes/ids.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';
import { isChunkNode } from '../wide/wideLeaves.js';
import type { InPlaceWrite } from './batchWrite.js';
import { droppedMark, releaseDropped, rewriteBranch, sharedTouch, soleLink } from './inPlace.js';
import { belowLeaf } from './navigate.js';

/** The deepest position accepted: index arithmetic is exact in doubles up to 2^53. */
const MAX_POSITION_DEPTH = 53;

/** Set when the last batch changed a node in place; read and cleared by `takePositionsChangedInPlace`. */
let changedInPlace = false;

/** Whether the last `setNodesAtPositions` changed its root in place. Reading clears it. */
export function takePositionsChangedInPlace(): boolean {
  const changed = changedInPlace;
  changedInPlace = false;
  return changed;
}

/** Position j projected to level `depth` (<= its own). */
function ancestorAt(depths: ArrayLike<number>, indices: ArrayLike<number>, j: number, depth: number): number {
  return Math.floor(indices[j]! / 2 ** (depths[j]! - depth));
}

/** Checks the positions: in range, strictly left to right, none inside another. */
function checkPositions(depths: ArrayLike<number>, indices: ArrayLike<number>): void {
  for (let j = 0; j < depths.length; j++) {
    checkDepth(depths[j]!, 0, MAX_POSITION_DEPTH);
    checkIndex(depths[j]!, indices[j]!);
    if (j === 0) continue;
    // Projected to the shallower level, the earlier position must lie left of the later one.
    const m = Math.min(depths[j - 1]!, depths[j]!);
    const a = ancestorAt(depths, indices, j - 1, m);
    const b = ancestorAt(depths, indices, j, m);
    if (a === b) throw new CoreError('BAD_INPUT', `position ${j - 1} (${depths[j - 1]}, ${indices[j - 1]}) and position ${j} (${depths[j]}, ${indices[j]}) overlap`);
    if (a > b) throw new CoreError('UNSORTED', `positions must run left to right (${j - 1} is right of ${j})`);
  }
}

/**
 * Rejects a batch one of whose paths runs into a leaf, a wide leaf or an opaque node (nothing written yet).
 * One descent over the union of the paths, as `writeAt` makes it: the positions of a spine share their
 * upper nodes, which a walk per position read once per position (a list's subtrees, k + 2 deep each).
 */
function checkPaths(store: NodeStore, node: NodeId, depth: number, depths: ArrayLike<number>, indices: ArrayLike<number>, lo: number, hi: number): void {
  if (depths[lo] === depth) return; // the one position at this node (positions never nest)
  const kind = node & 15;
  let left: NodeId;
  let right: NodeId;
  if (kind === KIND_BRANCH) {
    left = store.leftOf(node);
    right = store.rightOf(node);
  } else if (kind === KIND_ZERO && node !== 0) left = right = node - 16;
  else belowLeaf(node);
  let split = lo;
  while (split < hi && bitAt(indices[split]!, depths[split]! - depth - 1) === 0) split++;
  if (split > lo) checkPaths(store, left, depth + 1, depths, indices, lo, split);
  if (hi > split) checkPaths(store, right, depth + 1, depths, indices, split, hi);
}

interface Batch {
  readonly depths: ArrayLike<number>;
  readonly indices: ArrayLike<number>;
  readonly nodes: ArrayLike<NodeId>;
  readonly touched: ArrayLike<boolean> | undefined;
}

/**
 * Returns `root` with nodes[j] at position (depths[j], indices[j]) for every
 * j (positions left to right, none inside another; depths up to 53).
 */
export function setNodesAtPositions(
  store: NodeStore,
  root: NodeId,
  depths: ArrayLike<number>,
  indices: ArrayLike<number>,
  nodes: ArrayLike<NodeId>,
  inPlace?: InPlaceWrite,
): NodeId {
  changedInPlace = false;
  const n = depths.length;
  if (indices.length !== n || nodes.length !== n) throw new CoreError('BAD_INPUT', `${n} depths, ${indices.length} indices and ${nodes.length} nodes`);
  const touched = inPlace?.touched;
  if (touched !== undefined && touched.length !== n) throw new CoreError('BAD_INPUT', `${n} positions but ${touched.length} touched flags`);
  if (n === 0) return root;
  checkPositions(depths, indices);
  for (let j = 0; j < n; j++) store.check(nodes[j]!);
  checkPaths(store, root, 0, depths, indices, 0, n);
  const owned = inPlace !== undefined && store.holders(root) === inPlace.holders;
  const mark = droppedMark();
  try {
    return writeAt(store, root, 0, { depths, indices, nodes, touched }, 0, n, owned);
  } finally {
    releaseDropped(store, mark);
  }
}

/** Writes batch positions [lo, hi), all below `node` (at level `depth`); `owned` as in batchWrite.ts. */
function writeAt(store: NodeStore, node: NodeId, depth: number, batch: Batch, lo: number, hi: number, owned: boolean): NodeId {
  if (batch.depths[lo] === depth) {
    // The one position at this node (positions never nest).
    const fresh = batch.nodes[lo]!;
    if (fresh === node) {
      if (batch.touched?.[lo] === true) changedInPlace = true;
      return node;
    }
    if (isChunkNode(fresh) && isChunkNode(node) && store.sameHash(fresh, node)) return node;
    return fresh;
  }
  const kind = node & 15;
  const left = kind === KIND_BRANCH ? store.leftOf(node) : node - 16;
  const right = kind === KIND_BRANCH ? store.rightOf(node) : node - 16;
  // Left to right: the positions whose next bit is 0 come first.
  let split = lo;
  while (split < hi && bitAt(batch.indices[split]!, batch.depths[split]! - depth - 1) === 0) split++;
  const ownsChildren = owned && kind === KIND_BRANCH;
  let newLeft = left;
  let newRight = right;
  let touched = false;
  if (split > lo) {
    newLeft = writeAt(store, left, depth + 1, batch, lo, split, ownsChildren && soleLink(store, left));
    touched = changedInPlace;
    changedInPlace = false;
  }
  if (hi > split) {
    newRight = writeAt(store, right, depth + 1, batch, split, hi, ownsChildren && soleLink(store, right));
    touched ||= changedInPlace;
    changedInPlace = false;
  }
  if (newLeft === left && newRight === right && !touched) return node;
  if (ownsChildren) {
    rewriteBranch(store, node, left, right, newLeft, newRight);
    changedInPlace = true;
    return node;
  }
  // A child changed in place under a node other versions share would have changed them too.
  if (touched) sharedTouch(batch.indices[lo]!);
  return store.newBranch(newLeft, newRight);
}
