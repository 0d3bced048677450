/**
 * Tree helpers shared by every schema's `_toNode` / `_fromNode`: subtrees
 * from element nodes, and the chunks or nodes at one level of a subtree read
 * back, all through `@ssztree/core`'s public store API.
 *
 * Invariants: nodes returned here are floating (attached by the caller, or
 * swept at the next safe point: the end of the task, a `dispose()`, a
 * `collect()`); reads never create nodes except where a
 * wide leaf must be cut (core's `getNodesAtDepth` does that), and a tree of
 * the wrong shape (an opaque node, a leaf where a branch belongs, a length
 * leaf that is not a number) is reported as `SszError('BAD_TREE')`, never
 * as a `CoreError`.
 * @module
 */
import { CoreError, type NodeId, type NodeStore } from '@ssztree/core';
import { SszError } from '../errors.js';

/** Node kinds by the low 4 bits of an id (documented in docs/CORE.md: 0 zero, 1 branch, 2 leaf, 3 opaque, 4..9 wide). */
const KIND_ZERO = 0;
const KIND_BRANCH = 1;
const KIND_LEAF = 2;
const KIND_WIDE_BASE = 4;

/** Rethrows a core error as `BAD_TREE`; anything else passes through. */
export function treeError(e: unknown): unknown {
  if (e instanceof CoreError) return new SszError('BAD_TREE', e.message);
  return e;
}

/** From this many nodes on, subtrees are built with one core batch write. */
const BULK_NODES = 64;

/**
 * The subtree of `depth` whose first leaves are `nodes`, padded with zero
 * subtrees: built bottom-up, one branch per pair (hashed later by the
 * store's batched flush, all levels together). `height` is the height of
 * each given node above the chunk level (0 for element roots, which SSZ
 * pads with zero chunks; 3 for 8-chunk pages), so padding is zero(height + d).
 */
export function subtreeFromNodes(store: NodeStore, nodes: readonly NodeId[], depth: number, height = 0): NodeId {
  if (nodes.length === 0) return store.zero(depth + height);
  if (nodes.length >= BULK_NODES && depth <= 52) {
    // Many nodes: one core batch write into the zero subtree (its loops make the branches unchecked,
    // in one pass) instead of one checked `branch` call per pair.
    const indices = new Array<number>(nodes.length);
    for (let i = 0; i < nodes.length; i++) indices[i] = i;
    try {
      return store.setNodesAtDepth(store.zero(depth + height), depth, indices, nodes);
    } catch (e) {
      throw treeError(e);
    }
  }
  let level: NodeId[] = nodes as NodeId[];
  for (let d = 0; d < depth; d++) {
    const n = level.length;
    const next = new Array<NodeId>((n + 1) >>> 1);
    const pad = store.zero(d + height);
    for (let i = 0; i < n; i += 2) next[i >>> 1] = store.branch(level[i] as NodeId, i + 1 < n ? (level[i + 1] as NodeId) : pad);
    level = next;
  }
  if (level.length !== 1) throw new SszError('INVALID_VALUE', `${nodes.length} nodes do not fit a tree of depth ${depth}`);
  return level[0] as NodeId;
}

/** The first `count` nodes at level `depth` below `root` (elements of a list's contents, fields of a container). */
export function readNodes(store: NodeStore, root: NodeId, depth: number, count: number): NodeId[] {
  if (count === 0) return [];
  if (depth === 0) return [root];
  try {
    return store.getNodesAtDepth(root, depth, 0, count);
  } catch (e) {
    throw treeError(e);
  }
}

/**
 * The first `count` chunks at level `depth` below `root`, packed into one
 * fresh buffer (zero subtrees stay zero; wide leaves are copied whole).
 */
export function readChunks(store: NodeStore, root: NodeId, depth: number, count: number): Uint8Array {
  const out = new Uint8Array(32 * count);
  if (count > 0) {
    try {
      collect(store, root, depth, 0, count, out);
    } catch (e) {
      throw treeError(e);
    }
  }
  return out;
}

function collect(store: NodeStore, node: NodeId, depth: number, start: number, count: number, out: Uint8Array): void {
  if (start >= count) return;
  const kind = node & 15;
  if (kind === KIND_ZERO) return;
  if (depth === 0) {
    if (kind !== KIND_LEAF) throw new SszError('BAD_TREE', `expected a leaf at chunk ${start}, found a ${store.kind(node)}`);
    out.set(store.chunk(node), 32 * start);
    return;
  }
  if (kind >= KIND_WIDE_BASE && store.wideDepth(node) === depth) {
    const chunks = store.wideChunks(node);
    const take = Math.min(chunks.length, 32 * (count - start));
    out.set(chunks.subarray(0, take), 32 * start);
    return;
  }
  if (kind !== KIND_BRANCH) throw new SszError('BAD_TREE', `expected a branch of depth ${depth}, found a ${store.kind(node)}`);
  const half = 2 ** (depth - 1);
  collect(store, store.leftOf(node), depth - 1, start, count, out);
  collect(store, store.rightOf(node), depth - 1, start + half, count, out);
}

/** The single chunk a basic value's node holds (a leaf or the zero chunk). */
export function readChunk(store: NodeStore, node: NodeId): Uint8Array {
  return readChunks(store, node, 0, 1);
}

/** The length (or union selector) a length-mixed node holds, and its contents node. */
export function readMixed(store: NodeStore, node: NodeId): { length: number; contents: NodeId } {
  try {
    return { length: store.lengthOf(node), contents: store.left(node) };
  } catch (e) {
    throw treeError(e);
  }
}
