/**
 * Progressive trees in a store (progressive.ts has their geometry): the
 * spine built over subtree roots, and the subtree roots of a tree read back
 * with its shape checked.
 *
 * Invariants: `spineOver` makes the one tree `merkleize_progressive` hashes
 * (subtree k on the left of spine node k, the zero chunk at the end), and
 * `readSpine` accepts exactly that shape for the number of subtrees a value
 * needs — one spine node per subtree, then a zero chunk — so a tree read
 * back always has the root of the value read from it. Nodes made here are
 * floating, as everywhere in tree/.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError } from '../errors.js';
import { belowLeft, chunkPosition, subtreeCapacity, subtreeCount, subtreeStart } from '../progressive.js';
import { readChunks, subtreeFromNodes, treeError } from './nodes.js';
import { elementIndex, type PathSegment, type PathStep, type PathType } from './proofs.js';
import { copyLevel, levelNodes, recordLevelNodes } from './write.js';

/** The spine over subtree roots `subtrees` (subtree 0 first), ended by the zero chunk. */
export function spineOver(store: NodeStore, subtrees: readonly NodeId[]): NodeId {
  let node = store.zero(0);
  for (let k = subtrees.length - 1; k >= 0; k--) node = store.branch(subtrees[k] as NodeId, node);
  return node;
}

/**
 * The roots of the `count` subtrees below progressive root `root`, checking
 * the spine: a branch per subtree, then the zero chunk (a zero leaf or the
 * zero node). Anything else is `BAD_TREE`.
 */
export function readSpine(store: NodeStore, root: NodeId, count: number): NodeId[] {
  const out = new Array<NodeId>(count);
  let node = root;
  try {
    for (let k = 0; k < count; k++) {
      if (store.kind(node) !== 'branch') throw new SszError('BAD_TREE', `spine node ${k} of a progressive tree is a ${store.kind(node)}, not a branch`);
      out[k] = store.left(node);
      node = store.right(node);
    }
    if (node !== store.zero(0) && !(store.kind(node) === 'leaf' && store.chunk(node).every((b) => b === 0))) {
      throw new SszError('BAD_TREE', `a progressive tree of ${count} subtrees must end in the zero chunk, found a ${store.kind(node)}`);
    }
  } catch (e) {
    throw treeError(e);
  }
  return out;
}

/** Where the elements of subtree k lie among `total` elements packed `perChunk` to a chunk: [first, first + count). */
export function subtreeElements(k: number, total: number, perChunk: number): { first: number; count: number } {
  const first = perChunk * subtreeStart(k);
  return { first, count: Math.max(0, Math.min(perChunk * subtreeCapacity(k), total - first)) };
}

/** The number of subtrees `elements` elements packed `perChunk` to a chunk fill. */
export function subtreesFor(elements: number, perChunk: number): number {
  return subtreeCount(Math.ceil(elements / perChunk));
}

/** The progressive tree of packed `chunks` (32 bytes each): each subtree built and hashed by `store.fromChunks`. */
export function chunksTree(store: NodeStore, chunks: Uint8Array): NodeId {
  const count = chunks.length / 32;
  const m = subtreeCount(count);
  const subtrees = new Array<NodeId>(m);
  for (let k = 0; k < m; k++) {
    const start = subtreeStart(k);
    const end = Math.min(count, start + subtreeCapacity(k));
    subtrees[k] = store.fromChunks(chunks.subarray(32 * start, 32 * end), 2 * k);
  }
  return spineOver(store, subtrees);
}

/** The progressive tree whose chunks are the roots of element nodes `nodes`: each subtree from its nodes, zero padded. */
export function nodesTree(store: NodeStore, nodes: readonly NodeId[]): NodeId {
  const m = subtreeCount(nodes.length);
  const subtrees = new Array<NodeId>(m);
  for (let k = 0; k < m; k++) {
    const start = subtreeStart(k);
    subtrees[k] = subtreeFromNodes(store, nodes.slice(start, Math.min(nodes.length, start + subtreeCapacity(k))), 2 * k);
  }
  return spineOver(store, subtrees);
}

/** The first `count` chunks of the progressive tree at `root`, in one fresh buffer (the spine checked). */
export function progressiveChunks(store: NodeStore, root: NodeId, count: number): Uint8Array {
  const subtrees = readSpine(store, root, subtreeCount(count));
  const out = new Uint8Array(32 * count);
  for (let k = 0; k < subtrees.length; k++) {
    const start = subtreeStart(k);
    const n = Math.min(subtreeCapacity(k), count - start);
    out.set(readChunks(store, subtrees[k] as NodeId, 2 * k, n), 32 * start);
  }
  return out;
}

/**
 * Copies the first `byteLen` bytes of the progressive tree at `root` to
 * out[offset] (zeroed by the caller), subtree by subtree, rejecting non-zero
 * padding after them (`BAD_TREE`).
 */
export function copyProgressiveBytes(store: NodeStore, root: NodeId, byteLen: number, out: Uint8Array, offset: number): void {
  const subtrees = readSpine(store, root, subtreeCount(Math.ceil(byteLen / 32)));
  for (let k = 0; k < subtrees.length; k++) {
    const start = 32 * subtreeStart(k);
    copyLevel(store, subtrees[k] as NodeId, 2 * k, Math.min(32 * subtreeCapacity(k), byteLen - start), out, offset + start);
  }
}

/**
 * The `count` element nodes of the progressive tree at `root`, subtree by
 * subtree in one walk each (`levelNodes`; with `paired`, a record pair
 * stands for both its positions, as `recordLevelNodes` gives them).
 */
export function progressiveNodes(store: NodeStore, root: NodeId, count: number, paired = false): NodeId[] {
  const subtrees = readSpine(store, root, subtreeCount(count));
  const out: NodeId[] = [];
  for (let k = 0; k < subtrees.length; k++) {
    const n = Math.min(subtreeCapacity(k), count - subtreeStart(k));
    const nodes = paired ? recordLevelNodes(store, subtrees[k] as NodeId, 2 * k, n) : levelNodes(store, subtrees[k] as NodeId, 2 * k, n);
    for (let i = 0; i < n; i++) out.push(nodes[i] as NodeId);
  }
  return out;
}

/**
 * The proof step to position `segment` (an index below `count`) of a
 * progressive list kind whose root mixes in its length, `perChunk`
 * positions to a chunk: the contents on the left, then the chunk's place in
 * the spine. An element step: proofs check it against the stored length.
 */
export function progressiveElementStep(segment: PathSegment, count: number, perChunk: number, next: PathType | null): PathStep {
  const i = elementIndex(segment, count);
  return { ...belowLeft(chunkPosition(Math.floor(i / perChunk))), next, element: i };
}
