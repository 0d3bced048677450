/**
 * Reading and writing tree positions: by generalized index, by (depth,
 * index), in sorted batches, and in order across a level.
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
import { CoreError } from './errors.js';
import { bitAt, checkDepth, checkIndex, type Gindex, gindexBits } from './gindex.js';
import { KIND_BRANCH, KIND_OPAQUE, KIND_ZERO, type NodeId } from './ids.js';
import type { StoreCore as NodeStore } from './store.js';
import { expandWide, isChunkNode, wideDepth, wideInner, wideWithChunks } from './wide.js';

/** The deepest path navigation accepts (gindices up to 2^1024). */
export const MAX_PATH_DEPTH = 1024;

function belowLeaf(id: NodeId): never {
  if ((id & 15) === KIND_OPAQUE) throw new CoreError('OPAQUE', `path continues below opaque node ${id}`);
  throw new CoreError('NOT_BRANCH', `path continues below leaf node ${id}`);
}

/** Reads `bits.length - from` bits as an integer (at most 6 of them: inside a wide leaf). */
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
  for (let k = 0; k < depth; k++) {
    const kind = cur & 15;
    const bit = bitAt(index, depth - 1 - k);
    if (kind === KIND_BRANCH) cur = bit === 0 ? store.leftOf(cur) : store.rightOf(cur);
    else if (kind === KIND_ZERO && cur !== 0) cur = cur - 16;
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
    cur = bits[k] === 0 ? store.newBranch(cur, store.rightOf(parent)) : store.newBranch(store.leftOf(parent), cur);
  }
  for (const s of scratch) store.dropIfUnheld(s);
  return cur;
}

export function setNode(store: NodeStore, root: NodeId, gindex: Gindex, node: NodeId): NodeId {
  return setNodeByBits(store, root, gindexBits(gindex), node);
}

/**
 * Returns `root` with nodes[i] at position indices[i] of level `depth`, for
 * strictly ascending `indices`, in one pass down the tree.
 */
export function setNodesAtDepth(
  store: NodeStore,
  root: NodeId,
  depth: number,
  indices: ArrayLike<number>,
  nodes: ArrayLike<NodeId>,
): NodeId {
  checkDepth(depth, 0, MAX_PATH_DEPTH);
  const n = indices.length;
  if (nodes.length !== n) throw new CoreError('BAD_INPUT', `${n} indices but ${nodes.length} nodes`);
  if (n === 0) return root;
  for (let i = 0; i < n; i++) {
    const index = indices[i]!;
    checkIndex(depth, index);
    if (i > 0 && index <= indices[i - 1]!) throw new CoreError('UNSORTED', `indices must be strictly ascending (${indices[i - 1]} then ${index})`);
    store.check(nodes[i]!);
  }
  return writeBatch(store, root, depth, indices, nodes, 0, n, 0);
}

/** Writes indices[lo..hi) (all within [base, base + 2^depth)) below `node`. */
function writeBatch(
  store: NodeStore,
  node: NodeId,
  depth: number,
  indices: ArrayLike<number>,
  nodes: ArrayLike<NodeId>,
  lo: number,
  hi: number,
  base: number,
): NodeId {
  if (depth === 0) {
    const fresh = nodes[lo]!;
    if (fresh === node || (isChunkNode(fresh) && isChunkNode(node) && store.sameHash(fresh, node))) return node;
    return fresh;
  }
  const kind = node & 15;
  let left: NodeId;
  let right: NodeId;
  if (kind === KIND_BRANCH) {
    // Both links from the node's one meta row.
    const branches = store.branches;
    const slot = node >>> 4;
    const m = branches.meta[slot >>> branches.shift]!;
    const b = (slot & branches.mask) << 2;
    left = m[b]!;
    right = m[b + 1]!;
  } else if (kind === KIND_ZERO && node !== 0) {
    left = right = node - 16;
  } else {
    const wd = wideDepth(node);
    if (wd === 0 || depth > wd) belowLeaf(node);
    if (depth === wd && allChunks(nodes, lo, hi)) return wideWithChunks(store, node, indices, nodes, lo, hi, base);
    const expanded = expandWide(store, node);
    const result = writeBatch(store, expanded, depth, indices, nodes, lo, hi, base);
    if (result === expanded) {
      store.dropIfUnheld(expanded);
      return node;
    }
    store.dropIfUnheld(expanded);
    return result;
  }
  const mid = base + (depth <= 31 ? 1 << (depth - 1) : 2 ** (depth - 1));
  let split = lo;
  while (split < hi && indices[split]! < mid) split++;
  const newLeft = split > lo ? writeBatch(store, left, depth - 1, indices, nodes, lo, split, base) : left;
  const newRight = hi > split ? writeBatch(store, right, depth - 1, indices, nodes, split, hi, mid) : right;
  if (newLeft === left && newRight === right) return node;
  return store.newBranch(newLeft, newRight);
}

function allChunks(nodes: ArrayLike<NodeId>, lo: number, hi: number): boolean {
  for (let i = lo; i < hi; i++) if (!isChunkNode(nodes[i]!)) return false;
  return true;
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
