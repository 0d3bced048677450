/**
 * Sorted batch writes: `setNodesAtDepth`, `setChunksAtDepth` and
 * `setWidesAtDepth` put many nodes (leaves from chunks, new wide leaves) at
 * strictly ascending positions of one level in one pass down the tree,
 * splitting the batch at each branch (navigate.ts has the single-position
 * reads and writes).
 *
 * Writes are persistent: new branches along the written paths only, the
 * rest shared with the old tree, which never changes. A write that stores
 * what is already there creates nothing, and a batch of no-ops returns the
 * very same root id. Below a record pair (recordPairs.ts) a batch of base
 * records makes a new pair; two base records written side by side become one.
 *
 * Invariant: every id returned has either a holder or no holder at all (the
 * callers float or retain it); a batch that throws part way floats what it
 * had made (`guarded`), and internal scratch nodes are freed before returning.
 * @module
 */
import { CoreError } from './errors.js';
import { checkDepth, checkIndex } from './gindex.js';
import { KIND_BRANCH, KIND_ZERO, MAX_WIDE_DEPTH, type NodeId } from './ids.js';
import { belowLeaf, MAX_PATH_DEPTH } from './navigate.js';
import { fitsHalf, pairLayout, pairOfRecords, pairWithHalves } from './recordPairs.js';
import type { StoreCore as NodeStore } from './store.js';
import { expandWide, isChunkNode, wideDepth, wideWithChunks } from './wide.js';
import { createHashedWides } from './wideBuild.js';

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
  checkAscending(depth, indices);
  for (let i = 0; i < n; i++) store.check(nodes[i]!);
  return guarded(store, depth, () => writeBatch(store, root, depth, { indices, nodes, chunks: undefined }, 0, n, 0));
}

/**
 * Like `setNodesAtDepth` with a leaf per write, but the leaves come from
 * `chunks` (32 bytes per index) and are only created where the bytes differ
 * from what is there: a no-op write allocates nothing.
 */
export function setChunksAtDepth(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, chunks: Uint8Array): NodeId {
  checkDepth(depth, 0, MAX_PATH_DEPTH);
  const n = indices.length;
  if (!(chunks instanceof Uint8Array) || chunks.length !== 32 * n) {
    throw new CoreError('BAD_INPUT', `${n} indices need ${32 * n} chunk bytes`);
  }
  if (n === 0) return root;
  checkAscending(depth, indices);
  const words = chunks.byteOffset % 4 === 0 ? new Int32Array(chunks.buffer, chunks.byteOffset, chunks.length >>> 2) : undefined;
  return guarded(store, depth, () => writeBatch(store, root, depth, { indices, nodes: undefined, chunks, words }, 0, n, 0));
}

function checkAscending(depth: number, indices: ArrayLike<number>): void {
  const n = indices.length;
  // Ascending integers: the range check is needed at the ends only.
  checkIndex(depth, indices[0]!);
  checkIndex(depth, indices[n - 1]!);
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const index = indices[i]!;
    if (!(index > prev) || !Number.isInteger(index)) {
      if (!Number.isInteger(index)) checkIndex(depth, index);
      throw new CoreError('UNSORTED', `indices must be strictly ascending (${prev} then ${index})`);
    }
    prev = index;
  }
}

/**
 * Runs a write; if it throws part way (a path below a leaf), the branches it
 * had already made are floated so that the next sweep frees them.
 */
function guarded(store: NodeStore, depth: number, write: () => NodeId): NodeId {
  const marks = store.pendingMarks(depth);
  try {
    return write();
  } catch (error) {
    store.floatSince(marks);
    throw error;
  }
}

/** The writes of one batch: nodes, or chunks that become leaves. */
interface Batch {
  readonly indices: ArrayLike<number>;
  readonly nodes: ArrayLike<NodeId> | undefined;
  readonly chunks: Uint8Array | undefined;
  /** `chunks` as 32-bit words when it is 4-byte aligned (faster leaf copies). */
  readonly words?: Int32Array | undefined;
}

/** The node written at batch position i, made from its chunk if needed (compared against `old` first). */
function freshAt(store: NodeStore, batch: Batch, i: number, old: NodeId): NodeId {
  if (batch.chunks !== undefined) {
    if (isChunkNode(old) && store.sameBytes(old, batch.chunks, 32 * i)) return old;
    return batch.words !== undefined ? store.newLeafFromWords(batch.words, 8 * i) : store.newLeaf(batch.chunks, 32 * i);
  }
  const fresh = batch.nodes![i]!;
  if (fresh === old || (isChunkNode(fresh) && isChunkNode(old) && store.sameHash(fresh, old))) return old;
  return fresh;
}

/** Writes batch positions [lo, hi) (all within [base, base + 2^depth)) below `node`. */
function writeBatch(store: NodeStore, node: NodeId, depth: number, batch: Batch, lo: number, hi: number, base: number): NodeId {
  if (depth === 0) return freshAt(store, batch, lo, node);
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
    return writeIntoWide(store, node, depth, batch, lo, hi, base);
  }
  const mid = base + (depth <= 31 ? 1 << (depth - 1) : 2 ** (depth - 1));
  const split = lowerBound(batch.indices, lo, hi, mid);
  const newLeft = split > lo ? writeBatch(store, left, depth - 1, batch, lo, split, base) : left;
  const newRight = hi > split ? writeBatch(store, right, depth - 1, batch, split, hi, mid) : right;
  if (newLeft === left && newRight === right) return node;
  if (depth === 1) {
    // Two base records side by side become a pair (recordPairs.ts) rather than a branch.
    const pair = pairOfRecords(store, newLeft, newRight);
    if (pair !== -1) return pair;
  }
  return store.newBranch(newLeft, newRight);
}

/** The first position in [lo, hi) whose index is >= `value` (binary search). */
function lowerBound(indices: ArrayLike<number>, lo: number, hi: number, value: number): number {
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (indices[m]! < value) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** Writes below a wide leaf: chunk writes make a new wide leaf, others expand it. */
function writeIntoWide(store: NodeStore, node: NodeId, depth: number, batch: Batch, lo: number, hi: number, base: number): NodeId {
  const wd = wideDepth(node);
  if (wd === 0 || depth > wd) belowLeaf(node);
  if (depth === wd && (batch.chunks !== undefined || allChunks(batch.nodes!, lo, hi))) {
    if (batch.nodes !== undefined) return wideWithChunks(store, node, batch.indices, batch.nodes, lo, hi, base);
    // Chunk writes: leaves just long enough to copy from.
    const leaves: NodeId[] = [];
    const positions: number[] = [];
    for (let i = lo; i < hi; i++) {
      leaves.push(store.newLeaf(batch.chunks!, 32 * i));
      positions.push(batch.indices[i]!);
    }
    const result = wideWithChunks(store, node, positions, leaves, 0, leaves.length, base);
    for (const leaf of leaves) store.dropIfUnheld(leaf);
    return result;
  }
  const pair = depth === 1 && batch.nodes !== undefined ? pairLayout(node) : undefined;
  if (pair !== undefined && allHalves(pair, batch.nodes!, lo, hi)) {
    // Halves of a record pair: a new pair from their bytes (recordPairs.ts), not a branch over two records.
    return pairWithHalves(store, node, pair, batch.indices, batch.nodes!, lo, hi, base);
  }
  const expanded = expandWide(store, node);
  const result = writeBatch(store, expanded, depth, batch, lo, hi, base);
  store.dropIfUnheld(expanded);
  return result === expanded ? node : result;
}

function allHalves(pair: Parameters<typeof fitsHalf>[0], nodes: ArrayLike<NodeId>, lo: number, hi: number): boolean {
  for (let i = lo; i < hi; i++) if (!fitsHalf(pair, nodes[i]!)) return false;
  return true;
}

function allChunks(nodes: ArrayLike<NodeId>, lo: number, hi: number): boolean {
  for (let i = lo; i < hi; i++) if (!isChunkNode(nodes[i]!)) return false;
  return true;
}

/**
 * Returns `root` with new wide leaves of inner depth `innerDepth` at
 * positions indices[i] (strictly ascending) of level `depth`, the i-th made
 * from `data` at byte offset offsets[i]. The wide leaves are made here, not
 * floated: each is linked by the new branches (or freed by the next sweep
 * if the write fails part way). `created`, when given, receives their ids.
 */
export function setWidesAtDepth(
  store: NodeStore,
  root: NodeId,
  depth: number,
  indices: ArrayLike<number>,
  innerDepth: number,
  data: Uint8Array,
  offsets: ArrayLike<number>,
  created?: NodeId[],
): NodeId {
  checkDepth(depth, 0, MAX_PATH_DEPTH);
  checkDepth(innerDepth, 1, MAX_WIDE_DEPTH);
  const n = indices.length;
  if (offsets.length !== n) throw new CoreError('BAD_INPUT', `${n} indices but ${offsets.length} offsets`);
  if (n === 0) return root;
  checkAscending(depth, indices);
  const bytes = 32 << innerDepth;
  for (let i = 0; i < n; i++) {
    const o = offsets[i]!;
    if (!Number.isInteger(o) || o < 0 || o + bytes > data.length) throw new CoreError('BAD_INPUT', `no ${bytes} bytes at offset ${o}`);
  }
  const nodes = new Array<NodeId>(n);
  if (createHashedWides(store, innerDepth, data, offsets, n, nodes)) {
    // Hashed already and on no list: if the write fails part way, the sweep must still find them.
    try {
      const next = guarded(store, depth, () => writeBatch(store, root, depth, { indices, nodes, chunks: undefined }, 0, n, 0));
      if (created !== undefined) for (let i = 0; i < n; i++) created[i] = nodes[i]!;
      return next;
    } catch (error) {
      for (let i = 0; i < n; i++) store.float(nodes[i]!);
      throw error;
    }
  }
  return guarded(store, depth, () => {
    // Word copies when the data and every offset are 4-byte aligned (a view's slab always is).
    let aligned = data.byteOffset % 4 === 0;
    for (let i = 0; i < n && aligned; i++) aligned = offsets[i]! % 4 === 0;
    if (aligned) {
      const words = new Int32Array(data.buffer, data.byteOffset, data.length >>> 2);
      for (let i = 0; i < n; i++) nodes[i] = store.newWideFromWords(innerDepth, words, offsets[i]! >>> 2);
    } else for (let i = 0; i < n; i++) nodes[i] = store.newWide(innerDepth, data, offsets[i]!);
    if (created !== undefined) for (let i = 0; i < n; i++) created[i] = nodes[i]!;
    return writeBatch(store, root, depth, { indices, nodes, chunks: undefined }, 0, n, 0);
  });
}
