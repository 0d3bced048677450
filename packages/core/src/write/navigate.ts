/**
 * Reading and writing tree positions: by generalized index, by (depth,
 * index), and in order across a level (sorted batch writes are
 * batchWrite.ts's).
 *
 * Writes are persistent: they build new branches along the written paths
 * only and share everything else with the old tree, which never changes.
 * A write that stores what is already there (the same node id, or a chunk
 * with the same 32 bytes) creates nothing, and a batch whose writes are all
 * no-ops returns the very same root id.
 *
 * Invariant: every id returned has either a holder or no holder at all; the
 * callers (`NodeStore` methods, `Tree`) float or retain it. Internal scratch
 * nodes (expanded wide leaves) are freed before returning.
 * @module
 */
import { CoreError } from '../errors.js';
import { checkDepth, checkIndex, type Gindex, gindexBits } from '../gindex.js';
import { KIND_BRANCH, KIND_OPAQUE, KIND_ZERO, type NodeId } from '../nodes/ids.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';
import { fitsHalf, pairLayout, pairOfRecords, pairWithHalves } from '../wide/recordPairs.js';
import { expandWide, isChunkNode, wideDepth, wideInner, wideWithChunks } from '../wide/wideLeaves.js';

/** The deepest path navigation accepts (gindices up to 2^1024). */
export const MAX_PATH_DEPTH = 1024;

export function belowLeaf(id: NodeId): never {
  if ((id & 15) === KIND_OPAQUE) throw new CoreError('OPAQUE', `path continues below opaque node ${id}`);
  throw new CoreError('NOT_BRANCH', `path continues below leaf node ${id}`);
}

/** Bits [from, to) as an integer (at most 6 of them: a position inside a wide leaf). */
function bitsValue(bits: ArrayLike<number>, from: number, to: number): number {
  let v = 0;
  for (let k = from; k < to; k++) v = v * 2 + bits[k]!;
  return v;
}

/** The node at the end of `bits` below `root`. */
export function getNodeByBits(store: NodeStore, root: NodeId, bits: ArrayLike<number>): NodeId {
  let cur = root;
  const depth = bits.length;
  for (let k = 0; k < depth; k++) {
    const kind = cur & 15;
    if (kind === KIND_BRANCH) cur = bits[k] === 0 ? store.leftOf(cur) : store.rightOf(cur);
    else if (kind === KIND_ZERO && cur !== 0) cur = cur - 16;
    else {
      const wd = wideDepth(cur);
      if (wd === 0 || depth - k > wd) belowLeaf(cur);
      return wideInner(store, cur, depth - k, bitsValue(bits, k, depth));
    }
  }
  return cur;
}

export function getNode(store: NodeStore, root: NodeId, gindex: Gindex): NodeId {
  return getNodeByBits(store, root, gindexBits(gindex));
}

/** The node at position `index` of level `depth` below `root`. */
export function getNodeAtDepth(store: NodeStore, root: NodeId, depth: number, index: number): NodeId {
  checkDepth(depth, 0, MAX_PATH_DEPTH);
  checkIndex(depth, index);
  let cur = root;
  // Links read straight from the branch rows, as `walkToDepth` does (a navigable element's view is made
  // after such a walk of ~40 levels: a call per level cost about as much as the loads).
  const branches = store.branches;
  const meta = branches.meta;
  const shift = branches.shift;
  const mask = branches.mask;
  let half = 2 ** (depth - 1);
  let rel = index;
  for (let k = 0; k < depth; k++) {
    const kind = cur & 15;
    const right = rel >= half ? 1 : 0;
    if (right === 1) rel -= half;
    half /= 2;
    if (kind === KIND_BRANCH) {
      const slot = cur >>> 4;
      cur = meta[slot >>> shift]![((slot & mask) << 2) + right]!;
    } else if (kind === KIND_ZERO && cur !== 0) cur = cur - 16;
    else {
      const wd = wideDepth(cur);
      const rel = depth - k;
      if (wd === 0 || rel > wd) belowLeaf(cur);
      return wideInner(store, cur, rel, index % (1 << rel));
    }
  }
  return cur;
}

/** Returns `root` with the node at the end of `bits` replaced by `node`. */
export function setNodeByBits(store: NodeStore, root: NodeId, bits: ArrayLike<number>, node: NodeId): NodeId {
  const depth = bits.length;
  const path = new Int32Array(depth);
  const scratch: NodeId[] = [];
  let cur = root;
  let k = 0;
  for (; k < depth; k++) {
    const kind = cur & 15;
    if (kind !== KIND_BRANCH && !(kind === KIND_ZERO && cur !== 0)) {
      const wd = wideDepth(cur);
      if (wd === 0 || depth - k > wd) belowLeaf(cur);
      if (depth - k === wd && isChunkNode(node)) {
        // A chunk write inside a wide leaf: a new wide leaf, no expansion.
        const pos = bitsValue(bits, k, depth);
        const fresh = wideWithChunks(store, cur, [pos], [node], 0, 1, 0);
        if (fresh === cur) {
          for (const s of scratch) store.dropIfUnheld(s);
          return root;
        }
        return rebuild(store, path, bits, k, fresh, scratch);
      }
      const pair = depth - k === 1 ? pairLayout(cur) : undefined;
      if (pair !== undefined && fitsHalf(pair, node)) {
        // A half of a record pair: a new pair from the halves' bytes, not a branch over two records.
        const fresh = pairWithHalves(store, cur, pair, [bits[k]!], [node], 0, 1, 0);
        if (fresh === cur) {
          for (const s of scratch) store.dropIfUnheld(s);
          return root;
        }
        return rebuild(store, path, bits, k, fresh, scratch);
      }
      cur = expandWide(store, cur);
      scratch.push(cur);
    }
    path[k] = cur;
    cur = bits[k] === 0 ? store.leftOf(cur) : store.rightOf(cur);
  }
  if (cur === node || (isChunkNode(cur) && isChunkNode(node) && store.sameHash(cur, node))) {
    for (const s of scratch) store.dropIfUnheld(s);
    return root;
  }
  return rebuild(store, path, bits, depth, node, scratch);
}

/** New branches from level `from` - 1 up to the root, with `node` at level `from`. */
function rebuild(store: NodeStore, path: Int32Array, bits: ArrayLike<number>, from: number, node: NodeId, scratch: NodeId[]): NodeId {
  let cur = node;
  for (let k = from - 1; k >= 0; k--) {
    const parent = path[k]!;
    const left = bits[k] === 0 ? cur : store.leftOf(parent);
    const right = bits[k] === 0 ? store.rightOf(parent) : cur;
    // Two base records side by side become a pair (wide/recordPairs.ts) rather than a branch.
    const pair = k === from - 1 ? pairOfRecords(store, left, right) : -1;
    cur = pair !== -1 ? pair : store.newBranch(left, right);
  }
  for (const s of scratch) store.dropIfUnheld(s);
  return cur;
}

export function setNode(store: NodeStore, root: NodeId, gindex: Gindex, node: NodeId): NodeId {
  return setNodeByBits(store, root, gindexBits(gindex), node);
}

/** `count` nodes of level `depth` from position `start`, in order. */
export function* iterateNodesAtDepth(store: NodeStore, root: NodeId, depth: number, start: number, count: number): Generator<NodeId> {
  checkDepth(depth, 0, MAX_PATH_DEPTH);
  if (count === 0) return;
  checkIndex(depth, start);
  checkIndex(depth, start + count - 1);
  const end = start + count;
  // Explicit stack of (node, depth remaining, first position covered).
  const nodes: NodeId[] = [root];
  const depths: number[] = [depth];
  const bases: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const d = depths.pop()!;
    const base = bases.pop()!;
    if (d === 0) {
      yield node;
      continue;
    }
    const kind = node & 15;
    if (kind !== KIND_BRANCH && !(kind === KIND_ZERO && node !== 0)) {
      const wd = wideDepth(node);
      if (wd === 0 || d > wd) belowLeaf(node);
      const from = Math.max(start, base);
      const to = Math.min(end, base + (1 << d));
      for (let p = from; p < to; p++) yield wideInner(store, node, d, p - base);
      continue;
    }
    const mid = base + 2 ** (d - 1);
    if (end > mid) {
      nodes.push(store.rightOf(node));
      depths.push(d - 1);
      bases.push(mid);
    }
    if (start < mid) {
      nodes.push(store.leftOf(node));
      depths.push(d - 1);
      bases.push(base);
    }
  }
}

/**
 * The node at position `index` of level `depth` below `root` when the path
 * to it runs through branches and zero subtrees only, else -1 (a leaf or a
 * wide leaf ends the path early). Nothing is made or floated: the id is
 * held by `root`, valid while `root` is. `depth` may be up to 53 (index
 * arithmetic in doubles, exact for powers of two).
 */
export function findAtDepth(store: NodeStore, root: NodeId, depth: number, index: number): NodeId {
  return walkToDepth(store, root, depth, index, false);
}

/**
 * The node at position `index` of level `depth` when every node strictly
 * between `root` and it is a branch held only by its parent's link (count
 * 1), else -1: below an owned root, that node's one parent link is then the
 * only way any version reaches it (inPlace.ts).
 */
export function soleNodeAtDepth(store: NodeStore, root: NodeId, depth: number, index: number): NodeId {
  return walkToDepth(store, root, depth, index, true);
}

/** `findAtDepth`, or with `sole` `soleNodeAtDepth`: the walk both make, through branches (and zero subtrees unless `sole`). */
function walkToDepth(store: NodeStore, root: NodeId, depth: number, index: number, sole: boolean): NodeId {
  let cur = root;
  let half = 2 ** (depth - 1);
  let rel = index;
  const branches = store.branches;
  const meta = branches.meta;
  const shift = branches.shift;
  const mask = branches.mask;
  for (let k = 0; k < depth; k++) {
    const right = rel >= half ? 1 : 0;
    if (right === 1) rel -= half;
    half /= 2;
    const kind = cur & 15;
    if (kind === KIND_BRANCH) {
      const slot = cur >>> 4;
      const m = meta[slot >>> shift]!;
      const b = (slot & mask) << 2;
      if (sole && k > 0 && m[b + 2] !== 1) return -1;
      cur = m[b + right]!;
    } else if (kind === KIND_ZERO && cur !== 0 && !sole) cur -= 16;
    else return -1;
  }
  return cur;
}
